import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import NMEAServer
import TestSupport

/// The page's request handler alone, on an `EmbeddedChannel`.
@Suite("Live page: the request handler", .mayBlock)
struct PageHandlerTests {
    func request(_ path: String) -> [HTTPServerRequestPart] {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: "127.0.0.1:8080")
        return [.head(head), .end(nil)]
    }

    @Test("a request that comes while the client has not read the last answer waits for it: no answer piles up behind a client that never reads")
    func waitsForWritable() throws {
        let channel = EmbeddedChannel(handler: HTTPPageHandler(policy: WebRequestPolicy(isLoopback: true)))
        defer { _ = try? channel.finish() }
        channel.isWritable = false
        for part in request("/") { try channel.writeInbound(part) }
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == nil, "answered past the backlog")
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        guard case .head(let head)? = try channel.readOutbound(as: HTTPServerResponsePart.self) else {
            Issue.record("no answer once writable")
            return
        }
        #expect(head.status == .ok)
    }
}
