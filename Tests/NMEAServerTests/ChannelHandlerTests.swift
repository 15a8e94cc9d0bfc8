import GPSDProtocol
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOWebSocket
import Signals
import Testing
@testable import NMEAServer
import Platform
import TestSupport

/// The server's NIO handlers alone, each on an `EmbeddedChannel`: what each writes, passes on
/// and closes, with the time advanced by hand where it has a timer.
@Suite("Channel handlers on an EmbeddedChannel", .mayBlock)
struct ChannelHandlerTests {
    static let address = try! SocketAddress(ipAddress: "127.0.0.1", port: 2947)

    /// The text of everything written so far, as one string.
    static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
        return text
    }

    // MARK: RefusalHandler

    @Test("a refused connection is told why once active, then closed; what the client sends is not read")
    func refusal() throws {
        let channel = EmbeddedChannel(handler: RefusalHandler(reason: ServerReply.error("Too many clients").line))
        try channel.connect(to: Self.address).wait()
        #expect(try Self.written(channel) == ServerReply.error("Too many clients").line)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
        try channel.writeInbound(ByteBuffer(string: "?WATCH;\n"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        // Added to a channel that is active already: told at once, once.
        let active = EmbeddedChannel()
        try active.connect(to: Self.address).wait()
        try active.pipeline.syncOperations.addHandler(RefusalHandler(reason: "no\r\n"))
        active.pipeline.fireChannelActive()
        #expect(try Self.written(active) == "no\r\n")
        #expect(!active.isActive)
    }

    // MARK: GPSDClientHandler

    /// What a client asks of its server, without a server: no device, no event loop but the
    /// channel's; what it is told is counted.
    final class StandInContext: ClientContext, @unchecked Sendable {
        let configuration = GPSDServer.Configuration(devices: [], listen: [])
        private let lock = Lock()
        private var told = (watches: 0, removals: 0, refusals: 0)
        var watches: Int { lock.withLock { told.watches } }
        var removals: Int { lock.withLock { told.removals } }
        func snapshot() -> ClientSession.ServerState {
            ClientSession.ServerState(devices: [], version: configuration.version, now: .now)
        }
        func watch(_ client: ClientConnection) { lock.withLock { told.watches += 1 } }
        func remove(_ client: ClientConnection) { lock.withLock { told.removals += 1 } }
        func countRefusal(_ reason: WritableKeyPath<GPSDServer.Refusals, Int> & Sendable) { lock.withLock { told.refusals += 1 } }
    }

    /// Runs `body` with a client connected to a stand-in for its server, then lets it go.
    static func withClient(_ body: (EmbeddedChannel, ClientConnection) throws -> Void) throws {
        let context = StandInContext()
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        let connection = ClientConnection(channel: channel, server: context)
        try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
        try channel.connect(to: address).wait()
        try body(channel, connection)
    }

    @Test("a watch is handed to the server through its context, and the client's end is told once")
    func contextTold() throws {
        let context = StandInContext()
        let channel = EmbeddedChannel()
        let connection = ClientConnection(channel: channel, server: context)
        try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
        try channel.connect(to: Self.address).wait()
        _ = try Self.written(channel)
        try channel.writeInbound(ByteBuffer(string: "?WATCH={\"enable\":true,\"json\":true};\n"))
        #expect(try Self.written(channel).contains("\"class\":\"WATCH\""))
        #expect(context.watches == 1)
        _ = try? channel.finish()
        #expect(context.removals == 1)
    }

    @Test("a gpsd client gets VERSION on connect, then a reply per request, in order, each a line of its own")
    func clientRequests() throws {
        try Self.withClient { channel, _ in
            let version = try Self.written(channel)
            #expect(version.hasPrefix("{\"class\":\"VERSION\"") && version.hasSuffix("\r\n"))
            try channel.writeInbound(ByteBuffer(string: "?DEVICES;?WA"))
            let devices = try Self.written(channel)
            #expect(devices.hasPrefix("{\"class\":\"DEVICES\"") && devices.hasSuffix("\r\n"))
            // The rest of a request split across reads.
            try channel.writeInbound(ByteBuffer(string: "TCH={\"enable\":true,\"json\":true};\n"))
            let watch = try Self.written(channel)
            #expect(watch.contains("{\"class\":\"WATCH\",\"enable\":true,\"json\":true"))
            try channel.writeInbound(ByteBuffer(string: "?NOSUCH;\n"))
            #expect(try Self.written(channel).hasPrefix("{\"class\":\"ERROR\""))
        }
    }

    @Test("while the client does not read its replies, no request is answered; they are answered in order once it reads")
    func clientBackpressure() throws {
        try Self.withClient { channel, _ in
            _ = try Self.written(channel)
            channel.isWritable = false
            try channel.writeInbound(ByteBuffer(string: "?VERSION;\n?DEVICES;\n"))
            #expect(try Self.written(channel).isEmpty, "answered past a full backlog")
            channel.isWritable = true
            channel.pipeline.fireChannelWritabilityChanged()
            let replies = try Self.written(channel).split(separator: "\r\n").map { String($0.prefix(18)) }
            #expect(replies == ["{\"class\":\"VERSION\"", "{\"class\":\"DEVICES\""])
        }
    }

    @Test("a report for a client whose backlog is full is dropped and counted, never queued")
    func clientDropsReports() throws {
        try Self.withClient { channel, connection in
            _ = try Self.written(channel)
            channel.isWritable = false
            connection.deliver(ByteBuffer(string: "{\"class\":\"TPV\"}\r\n"))
            #expect(connection.dropped.load(ordering: .relaxed) == 1)
            #expect(try Self.written(channel).isEmpty)
            channel.isWritable = true
            connection.deliver(ByteBuffer(string: "{\"class\":\"TPV\"}\r\n"))
            #expect(try Self.written(channel) == "{\"class\":\"TPV\"}\r\n")
        }
    }

    // MARK: WebSocketGate

    static func upgrade(_ uri: String, origin: String? = nil) -> HTTPServerRequestPart {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri)
        head.headers.add(name: "Host", value: "127.0.0.1:8080")
        head.headers.add(name: "Upgrade", value: "websocket")
        head.headers.add(name: "Connection", value: "Upgrade")
        if let origin { head.headers.add(name: "Origin", value: origin) }
        return .head(head)
    }

    /// Whether the head `part` comes out of the gate still asking to upgrade.
    static func stillUpgrades(_ part: HTTPServerRequestPart) throws -> Bool {
        let channel = EmbeddedChannel(handler: WebSocketGate(policy: WebRequestPolicy(isLoopback: true)))
        defer { _ = try? channel.finish() }
        try channel.writeInbound(part)
        guard case .head(let head)? = try channel.readInbound(as: HTTPServerRequestPart.self) else {
            Issue.record("the head did not come through")
            return false
        }
        return head.headers.contains(name: "upgrade")
    }

    @Test("the gate lets the feed's own upgrade through, and turns any other into a plain request for the page handler to refuse")
    func webSocketGate() throws {
        #expect(try Self.stillUpgrades(Self.upgrade(WebResource.feedPath)))
        #expect(try Self.stillUpgrades(Self.upgrade(WebResource.feedPath + "?x=1", origin: "http://127.0.0.1:8080")))
        #expect(try !Self.stillUpgrades(Self.upgrade("/elsewhere")))
        #expect(try !Self.stillUpgrades(Self.upgrade(WebResource.feedPath, origin: "http://evil.example")))
        // A request that asks no upgrade, and the rest of a request, pass unchanged.
        let channel = EmbeddedChannel(handler: WebSocketGate(policy: WebRequestPolicy(isLoopback: true)))
        defer { _ = try? channel.finish() }
        let plain = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        try channel.writeInbound(HTTPServerRequestPart.head(plain))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == .head(plain))
        #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == .end(nil))
    }

    // MARK: RequestDeadlineHandler

    @Test("a page connection that has not sent a whole request within its time is closed, however it trickles; a whole request stops the clock and a response restarts it")
    func requestDeadline() throws {
        let timedOut = Counter()
        let channel = EmbeddedChannel(handler: RequestDeadlineHandler(timeout: .seconds(10)) { timedOut.add() })
        try channel.connect(to: Self.address).wait()
        // Trickled parts do not restart the clock.
        channel.embeddedEventLoop.advanceTime(by: .seconds(6))
        try channel.writeInbound(Self.upgrade("/"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(timedOut.value == 1 && !channel.isActive)

        let served = EmbeddedChannel(handler: RequestDeadlineHandler(timeout: .seconds(10)) { timedOut.add() })
        try served.connect(to: Self.address).wait()
        try served.writeInbound(Self.upgrade("/"))
        try served.writeInbound(HTTPServerRequestPart.end(nil))
        // A whole request: no deadline while it is answered.
        served.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(timedOut.value == 1 && served.isActive)
        try served.writeOutbound(HTTPServerResponsePart.end(nil))
        served.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(served.isActive)
        served.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(timedOut.value == 2 && !served.isActive)
    }

    // MARK: WebSocketFeedHandler

    static func frame(_ opcode: WebSocketOpcode, _ data: ByteBuffer = ByteBuffer()) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, data: data)
    }

    @Test("the feed sends each write as one text frame, answers a ping, echoes a close, and closes on any data frame from the page")
    func webSocketFeed() throws {
        let channel = EmbeddedChannel(handler: WebSocketFeedHandler())
        try channel.connect(to: Self.address).wait()
        try channel.writeOutbound(ByteBuffer(string: "{\"class\":\"SKY\"}\r\n{\"class\":\"TPV\"}\r\n"))
        let report = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(report.opcode == .text && report.fin && String(buffer: report.unmaskedData).hasSuffix("TPV\"}\r\n"))
        try channel.writeInbound(Self.frame(.ping, ByteBuffer(string: "hi")))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong && String(buffer: pong.unmaskedData) == "hi")
        try channel.writeInbound(Self.frame(.text, ByteBuffer(string: "?WATCH;")))
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        var code = close.unmaskedData
        #expect(close.opcode == .connectionClose && code.readWebSocketErrorCode() == .policyViolation)
        #expect(!channel.isActive)

        let closed = EmbeddedChannel(handler: WebSocketFeedHandler())
        try closed.connect(to: Self.address).wait()
        var goingAway = ByteBuffer()
        goingAway.write(webSocketErrorCode: .goingAway)
        try closed.writeInbound(Self.frame(.connectionClose, goingAway))
        let echo = try #require(try closed.readOutbound(as: WebSocketFrame.self))
        var echoed = echo.unmaskedData
        #expect(echo.opcode == .connectionClose && echoed.readWebSocketErrorCode() == .goingAway)
        #expect(!closed.isActive)
    }
}

/// A count bumped from a handler's callback.
private final class Counter: Sendable {
    private let count = Protected(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
