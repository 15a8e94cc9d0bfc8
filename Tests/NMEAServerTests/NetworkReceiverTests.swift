import Foundation
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream
import Platform

/// A served network receiver whose connection drops: its watchers told, and the reconnection.
@Suite("network receivers served", .mayBlock)
struct NetworkReceiverTests {
    @Test("the receiver's server closes: its watchers told (DEVICE, activated 0), it reconnects by itself and they are told again (DEVICE, activated), fixes again; said once per reason")
    func dropAndReconnect() throws {
        let bytes = Array(try Data(contentsOf: GPSDServerTests.fixture))
        let peer = try LoopbackNMEAServer(bytes: bytes, connections: 2)
        defer { peer.close() }
        let url = "tcp://127.0.0.1:\(peer.port)"
        let said = Protected<[ServerEvent]>([])
        var configuration = GPSDServer.Configuration(devices: [url], listen: [("127.0.0.1", 0)])
        configuration.events = { event in said.withLock { $0.append(event) } }
        let server = GPSDServer(configuration: configuration)
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let client = try LineClient(port: port)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        var lines: [String] = []
        // Both connections' fixes, and what came between them.
        let deadline = Date().addingTimeInterval(20)
        while lines.count(where: { $0.hasPrefix("{\"class\":\"TPV\"") }) < 20, Date() < deadline, let line = client.readLine(seconds: 5) {
            lines.append(line)
        }
        let gone = try #require(lines.firstIndex(of: "{\"class\":\"DEVICE\",\"path\":\"\(url)\",\"activated\":0}"), "\(lines.filter { !$0.hasPrefix("{\"class\":\"SKY\"") })")
        let back = try #require(lines.lastIndex { $0.hasPrefix("{\"class\":\"DEVICE\",\"path\":\"\(url)\"") && $0.contains("\"activated\":\"") },
                                "\(lines.filter { !$0.hasPrefix("{\"class\":\"SKY\"") }.map { $0.prefix(100) }); \(said.withLock { $0 })")
        #expect(gone < back)
        let fixes = { (range: Range<Int>) in lines[range].count { $0.hasPrefix("{\"class\":\"TPV\"") } }
        #expect(fixes(0..<gone) == 10 && fixes(back..<lines.count) == 10, "every fix of each connection")
        #expect(fixes(gone..<back) == 0)
        // The second connection closes too, then the peer is gone: refused from then on.
        #expect(eventually {
            said.withLock { $0.contains { if case .networkInterrupted(_, let interruption) = $0 { interruption.reason == "connection refused" } else { false } } }
        })
        let events = said.withLock { $0 }
        let drops = events.count { if case .networkInterrupted(_, let interruption) = $0 { interruption.reason == "closed by the peer" } else { false } }
        let refusals = events.count { if case .networkInterrupted(_, let interruption) = $0 { interruption.reason == "connection refused" } else { false } }
        let reconnections = events.count { if case .networkConnected(_, true) = $0 { true } else { false } }
        #expect(drops == 2 && reconnections == 1 && refusals == 1, "\(events)")
        #expect(client.readLine(containing: "\"activated\":0", seconds: 3) != nil, "told of the second drop")
        #expect(client.readLine(containing: "\"activated\":0", seconds: 2) == nil, "and once only, however often it is refused")
    }
}
