import Foundation
import NIOPosix
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream

/// The plain NMEA feed (`serve --nmea`, port 10110 by custom) and its datagrams
/// (`--nmea-udp`), with real sockets and a pseudo-terminal for the receiver.
@Suite("NMEA feed", .mayBlock)
struct NMEAFeedTests {
    /// An AIS report as an AIS receiver on the same multiplexer sends it.
    static let ais = "!AIVDM,1,1,,B,177KQJ5000G?tO`K>RA1wUbN0TKH,0*5C\r\n"

    /// A server of `terminal` with its gpsd port and its NMEA feed on ephemeral loopback
    /// ports: the server, the gpsd port, the feed's port.
    func serve(_ terminal: PseudoTerminal, datagramsTo: [Int] = [], clientBacklog: Int = 256 * 1024,
               slowClientTimeout: Duration = .seconds(10), maximumClients: Int = 1024) throws -> (GPSDServer, gpsd: Int, feed: Int) {
        var configuration = GPSDServer.Configuration(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)],
                                                     maximumClients: maximumClients, clientBacklog: clientBacklog,
                                                     slowClientTimeout: slowClientTimeout)
        configuration.nmeaFeed = [("127.0.0.1", 0)]
        configuration.nmeaDatagrams = datagramsTo.map { ("127.0.0.1", $0) }
        let server = GPSDServer(configuration: configuration)
        let gpsd = try #require(try server.start().first?.port)
        let feed = try #require(server.nmeaFeedAddresses.first?.port)
        return (server, gpsd, feed)
    }

    @Test("a feed client opens the device and gets every valid sentence unchanged with CR LF, AIS included, and nothing else: no JSON, no binary, no corrupt sentence; what it sends is ignored; it leaving closes the device")
    func feedCarriesSentences() throws {
        let terminal = try PseudoTerminal()
        let (server, _, feedPort) = try serve(terminal)
        defer { server.stop() }
        #expect(openDescriptorCount(terminal.devicePath) == 0, "nobody watches: closed")
        var feed: LineClient! = try LineClient(port: feedPort)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1), "the feed's client opens the device")
        #expect(terminal.waitUntilConfigured())
        // A gpsd request on the feed's port is not answered: it is no gpsd port.
        feed.send("?WATCH={\"enable\":true,\"json\":true};?DEVICES;\n")
        let binary: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x00, 0x08, 0x19]
        let corrupted = Array("$GPGGA,120000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,*00\r\n".utf8)
        // A sentence ended by LF alone goes out with CR LF, as NMEA 0183 ends them (CR LF is
        // one Character).
        let lfOnly = SyntheticEpochs.sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1").dropLast() + "\n"
        terminal.write(binary + corrupted + SyntheticEpochs.epoch(0) + Array(Self.ais.utf8) + Array(lfOnly.utf8) + [0xFF, 0x00]
                       + SyntheticEpochs.epoch(1))
        let expected = SyntheticEpochs.epoch(0) + Array(Self.ais.utf8) + Array(lfOnly.dropLast().utf8) + [0x0D, 0x0A] + SyntheticEpochs.epoch(1)
        #expect(String(decoding: feed.readBytes(expected.count), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(feed.readLine(seconds: 1) == nil, "nothing more: no reply, no notice, no report")
        feed = nil
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0), "its only client left: closed")
        #expect(eventually { server.clientCount == 0 })
    }

    @Test("idle feed clients past the feed's share (a quarter of the limit) are closed at once; gpsd's clients still get in up to the limit")
    func feedShare() throws {
        let terminal = try PseudoTerminal()
        let (server, gpsdPort, feedPort) = try serve(terminal, maximumClients: 8)
        defer { server.stop() }
        let feeds = try (0..<6).map { _ in try LineClient(port: feedPort) }
        // Two are kept; the other four are closed by the server (a read ends at once).
        #expect(eventually { server.refusals.tooManyClients == 4 }, "\(server.refusals)")
        let gpsd = try (0..<6).map { _ in try LineClient(port: gpsdPort) }
        for client in gpsd { #expect(client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true) }
        // The limit itself: the ninth connection is refused.
        let ninth = try LineClient(port: gpsdPort)
        #expect(ninth.readLine()?.contains("Too many clients") == true)
        withExtendedLifetime(feeds) {}
    }

    @Test("datagrams for a loop that is busy wait in a bounded hand-off: sentences past its capacity are dropped and counted, never queued on the loop")
    func datagramHandOffBounded() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let destination = DatagramReceiver()
        let feed = try NMEADatagramFeed(destinations: [("127.0.0.1", destination.port)], group: group)
        defer { feed.close() }
        // The loop is held up (a slow write, a busy machine) while 100,000 sentences come.
        let release = DispatchSemaphore(value: 0), held = DispatchSemaphore(value: 0)
        group.next().execute {
            held.signal()
            release.wait()
        }
        held.wait()
        let sentence = String(decoding: SyntheticEpochs.epoch(0).prefix { $0 != 0x0D }, as: UTF8.self)
        for _ in 0..<100_000 { feed.send(sentence) }
        #expect(feed.counts.unsent == 100_000 - NMEADatagramFeed.handOffCapacity)
        release.signal()
        #expect(eventually { feed.counts.sent == NMEADatagramFeed.handOffCapacity }, "\(feed.counts)")
        #expect(destination.receive(seconds: 5) == Array(sentence.utf8) + [0x0D, 0x0A])
    }

    @Test("a gpsd client in NMEA mode gets AIS sentences unchanged too")
    func aisThroughWatch() throws {
        let terminal = try PseudoTerminal()
        let (server, gpsdPort, _) = try serve(terminal)
        defer { server.stop() }
        let client = try LineClient(port: gpsdPort)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"nmea\":true}\n")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"") != nil)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        terminal.write(Array(Self.ais.utf8) + SyntheticEpochs.epoch(0))
        #expect(client.readLine(containing: "!AIVDM") == String(Self.ais.dropLast()))
    }

    @Test("a gpsd client and a feed client share the device: it stays open while either watches, and closes after both")
    func sharedWithGPSDClients() throws {
        let terminal = try PseudoTerminal()
        let (server, gpsdPort, feedPort) = try serve(terminal)
        defer { server.stop() }
        var feed: LineClient? = try LineClient(port: feedPort)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        var watcher: LineClient? = try LineClient(port: gpsdPort)
        _ = watcher?.readLine()
        watcher?.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(watcher?.readLine(containing: "\"class\":\"WATCH\"") != nil)
        #expect(openDescriptorCount(terminal.devicePath) == 1, "opened once for both")
        feed = nil
        usleep(200_000)
        #expect(openDescriptorCount(terminal.devicePath) == 1, "the gpsd client still watches")
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1))
        #expect(watcher?.readLine(containing: "\"class\":\"TPV\"") != nil)
        watcher = nil
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        withExtendedLifetime(feed) {}
    }

    @Test("a feed client that never reads: its sentences are dropped and counted, then it is cut off; another feed client goes on")
    func slowFeedClient() throws {
        let terminal = try PseudoTerminal()
        let (server, _, feedPort) = try serve(terminal, clientBacklog: 16 * 1024, slowClientTimeout: .seconds(1))
        defer { server.stop() }
        let stuck = try LineClient(port: feedPort, receiveBuffer: 4096)
        let reader = try LineClient(port: feedPort)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        let fixture = Array(try Data(contentsOf: GPSDServerTests.fixture))
        var sentences = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, server.clientCount > 1 || sentences < 200 {
            for _ in 0..<4 { terminal.write(fixture) }
            while let line = reader.readLine(seconds: 0.05) { if line.hasPrefix("$") { sentences += 1 } }
        }
        #expect(server.clientCount == 1, "the stuck client was cut off")
        #expect(server.refusals.slowClients == 1)
        #expect(server.reportsDroppedForSlowClients > 0)
        #expect(sentences >= 200, "the reading client went on: \(sentences) sentences")
        withExtendedLifetime(stuck) {}
    }

    @Test("hostile feed clients (random bytes, a megabyte with no line end, a flood, a thousand connections dropped) while another reads: it misses no sentence")
    func hostileFeedClients() throws {
        let terminal = try PseudoTerminal()
        let (server, _, feedPort) = try serve(terminal)
        defer { server.stop() }
        let reader = try LineClient(port: feedPort)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        let epochs = 60
        let written = terminal.writeEpochs(0..<epochs, every: 20_000)
        defer { written.wait() }
        var generator = SystemRandomNumberGenerator()
        let noisy = try LineClient(port: feedPort)
        noisy.send(bytes: (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let long = try LineClient(port: feedPort)
        long.send(bytes: [UInt8](repeating: UInt8(ascii: "$"), count: 1 << 20))
        let flooding = try LineClient(port: feedPort)
        let flooded = flooding.flood(Array("$GPGGA,flood\r\n".utf8), seconds: 0.5)
        for _ in 0..<1000 { try LineClient(port: feedPort).resetOnClose() }
        var rmcs: [String] = []
        while rmcs.count < epochs, let line = reader.readLine(containing: "$GPRMC", seconds: 10) { rmcs.append(line) }
        #expect(rmcs == (0..<epochs).map { String(String(decoding: SyntheticEpochs.epoch($0), as: UTF8.self).split(separator: "\r\n")[1]) })
        #expect(flooded > 0)
        #expect(server.reportsDroppedForSlowClients == 0)
        withExtendedLifetime((noisy, long, flooding)) {}
    }

    @Test("--nmea-udp: each valid sentence in a datagram of its own, unchanged with CR LF, AIS included; the device read with nobody connected")
    func datagrams() throws {
        let terminal = try PseudoTerminal()
        let receiver = DatagramReceiver()
        let (server, _, _) = try serve(terminal, datagramsTo: [receiver.port])
        defer { server.stop() }
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1), "datagrams go out whether anyone listens or not: read all the time")
        #expect(terminal.waitUntilConfigured())
        terminal.write(Array("$GPGGA,junk*00\r\n".utf8) + SyntheticEpochs.epoch(0) + Array(Self.ais.utf8) + SyntheticEpochs.epoch(1))
        let expected = (String(decoding: SyntheticEpochs.epoch(0), as: UTF8.self) + Self.ais + String(decoding: SyntheticEpochs.epoch(1), as: UTF8.self))
            .split(separator: "\r\n").map { String($0) + "\r\n" }
        var received: [String] = []
        while received.count < expected.count, let datagram = receiver.receive() { received.append(String(decoding: datagram, as: UTF8.self)) }
        #expect(received == expected)
        #expect(eventually { server.datagramCounts.sent == expected.count })
        #expect(server.datagramCounts.unsent == 0)
    }

    @Test("--nmea-udp to a port nobody listens on: sent all the same, nothing held up; the server stops cleanly")
    func datagramsToNobody() throws {
        let terminal = try PseudoTerminal()
        let (server, gpsdPort, _) = try serve(terminal, datagramsTo: [freeLoopbackPort(datagram: true)])
        let client = try LineClient(port: gpsdPort)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        // The device was opened for the datagrams, before the client came: its watch is
        // in place once answered.
        #expect(client.readLine(containing: "\"class\":\"WATCH\"") != nil)
        #expect(terminal.waitUntilConfigured())
        for index in 0..<20 { terminal.write(SyntheticEpochs.epoch(index)) }
        var fixes = 0
        while fixes < 19, client.readLine(containing: "\"class\":\"TPV\"") != nil { fixes += 1 }
        #expect(fixes == 19)
        #expect(eventually { server.datagramCounts.sent == 40 })
        server.stop()
        #expect(openDescriptorCount(terminal.devicePath) == 0)
    }

    @Test("the feed's port taken: start fails, naming the feed")
    func feedPortTaken() throws {
        let terminal = try PseudoTerminal()
        let (first, _, feedPort) = try serve(terminal)
        defer { first.stop() }
        var configuration = GPSDServer.Configuration(devices: [terminal.devicePath], listen: [("127.0.0.1", 0)])
        configuration.nmeaFeed = [("127.0.0.1", feedPort)]
        let second = GPSDServer(configuration: configuration)
        defer { second.stop() }
        #expect {
            try second.start()
        } throws: { error in
            guard let error = error as? GPSDServer.ListenError else { return false }
            return error.listener == .nmeaFeed && error.description.hasPrefix("cannot listen on 127.0.0.1:\(feedPort) for the NMEA feed")
        }
    }
}
