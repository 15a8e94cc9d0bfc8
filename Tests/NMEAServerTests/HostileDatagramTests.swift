import Foundation
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream

/// A served `udp://` receiver under hostile datagrams: anyone on the network can send to its
/// port.
@Suite("hostile datagrams", .mayBlock)
struct HostileDatagramTests {
    @Test("random datagrams, oversized ones (60 KB) and a flood of junk between a receiver's epochs: the server stays up, a gpsd client and a feed client miss no epoch")
    func hostileDatagrams() throws {
        let port = freeLoopbackPort(datagram: true)
        var configuration = GPSDServer.Configuration(devices: ["udp://:\(port)"], listen: [("127.0.0.1", 0)])
        configuration.nmeaFeed = [("127.0.0.1", 0)]
        let server = GPSDServer(configuration: configuration)
        let gpsdPort = try #require(try server.start().first?.port)
        defer { server.stop() }
        let feedPort = try #require(server.nmeaFeedAddresses.first?.port)
        let watcher = try LineClient(port: gpsdPort)
        _ = watcher.readLine()
        watcher.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(watcher.readLine(containing: "\"class\":\"WATCH\"") != nil)
        let feed = try LineClient(port: feedPort)
        // The port is bound once the first watcher opens the receiver: epochs until one is
        // reported (what is sent before the binding is lost).
        var first = 0
        let bound = Date().addingTimeInterval(20)
        while watcher.readLine(containing: "\"class\":\"TPV\"", seconds: 0.05) == nil, Date() < bound {
            sendDatagrams([SyntheticEpochs.epoch(first)], toPort: port)
            first += 1
        }
        try #require(first > 0 && Date() < bound, "the port was never bound")
        var generator = SystemRandomNumberGenerator()
        func junk(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let epochs = 40
        for index in first..<first + epochs {
            sendDatagrams([junk(512), junk(60_000), SyntheticEpochs.epoch(index)], toPort: port)
            if index == first + epochs / 2 {
                // A flood, then a pause for the socket's buffer to drain: the kernel drops
                // datagrams past it, which no reader can help.
                sendDatagrams((0..<3000).map { _ in junk(100) }, toPort: port)
                usleep(300_000)
            }
            // A receiver's pause between its epochs.
            usleep(30_000)
        }
        // The epoch after the last is what completes it: every epoch up to `epochs - 1`.
        // (The warm-up's last epochs may come first.)
        let expected = (first..<first + epochs - 1).map(SyntheticEpochs.time)
        var times: [String] = []
        while times.count < epochs - 1, let line = watcher.readLine(containing: "\"class\":\"TPV\"", seconds: 10) {
            guard let range = line.range(of: "\"time\":\"") else { continue }
            let time = String(line[range.upperBound...].prefix(24))
            if time >= expected[0] { times.append(time) }
        }
        #expect(times == expected)
        let rmcs = (first..<first + epochs).map { String(String(decoding: SyntheticEpochs.epoch($0), as: UTF8.self).split(separator: "\r\n")[1]) }
        var received: [String] = []
        while received.count < epochs, let line = feed.readLine(containing: "RMC", seconds: 10) {
            if line >= rmcs[0] { received.append(line) }
        }
        #expect(received == rmcs, "every RMC through the feed, and nothing made up")
        #expect(server.reportsDroppedForSlowClients == 0)
    }
}
