import Foundation
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream

/// The server with real sockets and a pseudo-terminal for the receiver.
@Suite("gpsd-protocol server", .mayBlock)
struct GPSDServerTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("NMEATests/Fixtures/ublox-multi.nmea")

    /// A server of one pseudo-terminal on an ephemeral loopback port, and that port.
    func serve(_ terminal: PseudoTerminal, linger: Duration = .zero, clientBacklog: Int = 256 * 1024,
               slowClientTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(60)) throws -> (GPSDServer, Int) {
        var configuration = GPSDServer.Configuration(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)],
                                                     linger: linger, clientBacklog: clientBacklog, slowClientTimeout: slowClientTimeout)
        configuration.requestTimeout = requestTimeout
        let server = GPSDServer(configuration: configuration)
        let bound = try server.start()
        let port = try #require(bound.first?.port)
        return (server, port)
    }

    /// A client that has read its VERSION and watches every device as JSON (its WATCH reply
    /// read), or `nil` when the reply did not come.
    func watcher(_ port: Int) throws -> LineClient? {
        let client = try LineClient(port: port)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        return client.readLine(containing: "\"class\":\"WATCH\"") == nil ? nil : client
    }

    /// A ``watcher(_:)`` whose watch has opened `terminal`'s device and set it up.
    func openingWatcher(_ port: Int, _ terminal: PseudoTerminal) throws -> LineClient {
        let client = try #require(try watcher(port))
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        return client
    }

    @Test("clients that watch and go at once (a reset as their replies are written): none is left watching, and the device closes")
    func watchAndVanish() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        for _ in 0..<300 {
            let client = try LineClient(port: port)
            _ = client.readLine()
            client.send(#"?WATCH={"enable":true,"json":true};?POLL;?DEVICES;"# + "\n")
            client.resetOnClose()
        }
        // A watcher left by one of them would keep the device open for ever.
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0), "the device is still open: a client that went is still watching")
        let last = try openingWatcher(port, terminal)
        _ = last
    }

    @Test("VERSION on connect; a watcher opens the device and gets TPV and SKY tagged with it; unwatching closes it")
    func watchLifecycle() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let client = try LineClient(port: port)
        let version = try #require(client.readLine())
        #expect(version.hasPrefix("{\"class\":\"VERSION\",\"release\":"))
        #expect(openDescriptorCount(path) == 0, "no watcher: closed")

        client.send("?WATCH={\"enable\":true,\"json\":true};\n")
        #expect(client.readLine()?.hasPrefix("{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"\(path)\"") == true)
        #expect(client.readLine()?.hasPrefix("{\"class\":\"WATCH\",\"enable\":true,\"json\":true") == true)
        #expect(waitForDescriptors(on: path, count: 1))
        #expect(terminal.waitUntilConfigured())

        let bytes = Array(try Data(contentsOf: Self.fixture))
        terminal.write(bytes)
        let tpv = try #require(client.readLine(containing: "\"class\":\"TPV\""))
        #expect(tpv.hasPrefix("{\"class\":\"TPV\",\"device\":\"\(path)\",\"mode\":"))
        #expect(client.readLine(containing: "\"class\":\"SKY\"")?.hasPrefix("{\"class\":\"SKY\",\"device\":\"\(path)\"") == true)
        // Open and heard: DEVICE as gpsd describes an NMEA receiver, its speed included.
        client.send("?DEVICES;\n")
        let devices = try #require(client.readLine(containing: "\"class\":\"DEVICES\""))
        for member in [#""driver":"NMEA0183""#, #""activated":"20"#, #""flags":1"#, #""bps":9600"#, #""parity":"N""#, #""stopbits":1"#] {
            #expect(devices.contains(member), "\(member) in \(devices)")
        }

        client.send("?WATCH={\"enable\":false}\n")
        #expect(client.readLine(containing: "\"class\":\"WATCH\",\"enable\":false") != nil)
        #expect(waitForDescriptors(on: path, count: 0), "the last watcher left: closed")
        #expect(!server.isOpen(path))
    }

    @Test("a watcher that goes away without a word counts as gone; many watchers open the device once")
    func watchersCounted() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        var clients: [LineClient] = []
        for _ in 0..<5 { clients.append(try #require(try watcher(port))) }
        #expect(waitForDescriptors(on: path, count: 1))
        #expect(openDescriptorCount(path) == 1)
        clients.removeLast(4)
        usleep(100_000)
        #expect(openDescriptorCount(path) == 1, "one watcher left: still open")
        clients.removeAll()
        #expect(waitForDescriptors(on: path, count: 0))
    }

    @Test("--linger: the device stays open that long after the last watcher left, and a watcher back within it keeps it")
    func linger() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let (server, port) = try serve(terminal, linger: .milliseconds(800))
        defer { server.stop() }
        var client = try #require(try watcher(port))
        #expect(waitForDescriptors(on: path, count: 1))
        client.send("?WATCH={\"enable\":false}\n")
        #expect(client.readLine(containing: "\"enable\":false") != nil)
        usleep(300_000)
        #expect(openDescriptorCount(path) == 1, "lingering")
        client = try #require(try watcher(port))
        usleep(800_000)
        #expect(openDescriptorCount(path) == 1, "watched again within the linger: kept open")
        client.send("?WATCH={\"enable\":false}\n")
        #expect(client.readLine(containing: "\"enable\":false") != nil)
        #expect(waitForDescriptors(on: path, count: 0), "closed once the linger is over")
    }

    @Test("a device that goes away is announced to its watchers, who stay connected")
    func deviceGone() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let client = try openingWatcher(port, terminal)
        terminal.closeMaster()
        #expect(client.readLine(containing: "\"activated\":0") == "{\"class\":\"DEVICE\",\"path\":\"\(path)\",\"activated\":0}")
        #expect(waitForDescriptors(on: path, count: 0))
        client.send("?VERSION;")
        #expect(client.readLine(containing: "\"class\":\"VERSION\"") != nil, "still connected")
    }

    @Test("100 watch and unwatch cycles, and 10 000 connections opened and dropped: no device descriptor or connection left behind")
    func noLeaks() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        // The first client then waits, idle, while ten thousand others come and go: under
        // ThreadSanitizer that took over the default minute, after which the server rightly let
        // the idle client go (gpsd's rule, tested on its own) and the last check failed.
        let (server, port) = try serve(terminal, requestTimeout: .seconds(3600))
        defer { server.stop() }
        let client = try LineClient(port: port)
        _ = client.readLine()
        for round in 0..<100 {
            client.send("?WATCH={\"enable\":true,\"json\":true}\n")
            #expect(client.readLine(containing: "\"class\":\"WATCH\",\"enable\":true") != nil, "round \(round)")
            #expect(waitForDescriptors(on: path, count: 1), "round \(round)")
            client.send("?WATCH={\"enable\":false}\n")
            #expect(client.readLine(containing: "\"class\":\"WATCH\",\"enable\":false") != nil, "round \(round)")
            #expect(waitForDescriptors(on: path, count: 0), "round \(round)")
            // Under the limit of 100 requests a second.
            usleep(25_000)
        }
        // Each reads its VERSION and goes: a socket closed with the server's line unread
        // resets, which costs the kernel ten times as long.
        for _ in 0..<10_000 { _ = try LineClient(port: port).readLine() }
        // The server sees each connection go on its own loop: give it a moment.
        // Each dropped connection is closed and forgotten (the process's descriptors are not
        // counted: other tests open theirs meanwhile).
        // A leak never goes; a loaded machine may take a while to close ten thousand.
        #expect(eventually(seconds: 30) { server.clientCount == 1 }, "\(server.clientCount) clients")
        client.send("?VERSION;")
        #expect(client.readLine(containing: "\"class\":\"VERSION\"") != nil, "the first client is still served")
    }

    @Test("more than 100 requests a second: the rest are answered with an ERROR, and the client is served again after")
    func rateLimit() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let client = try LineClient(port: port)
        _ = client.readLine()
        client.send(String(repeating: "?VERSION;", count: 150))
        var versions = 0, refused = 0
        while versions + refused < 150, let line = client.readLine(seconds: 5) {
            if line.hasPrefix("{\"class\":\"VERSION\"") { versions += 1 }
            if line == "{\"class\":\"ERROR\",\"message\":\"Too many requests\"}" { refused += 1 }
        }
        #expect(versions == 100 && refused == 50)
        usleep(1_100_000)
        client.send("?VERSION;")
        #expect(client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
    }

    @Test("a client that never reads: its reports are dropped and counted, then it is cut off; the others go on")
    func slowClient() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal, clientBacklog: 16 * 1024, slowClientTimeout: .seconds(1))
        defer { server.stop() }
        let stuck = try LineClient(port: port, receiveBuffer: 4096)
        stuck.send("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true}\n")
        let reader = try openingWatcher(port, terminal)
        let fixture = Array(try Data(contentsOf: Self.fixture))
        // Epochs keep coming while the stuck client's backlog fills (behind the kernel's
        // socket buffers, which grow to megabytes on loopback); the reader reads them all.
        // Four logs a turn, and a deadline that a ThreadSanitizer build meets too.
        var fixes = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, server.clientCount > 1 || fixes < 20 {
            for _ in 0..<4 { terminal.write(fixture) }
            while let line = reader.readLine(seconds: 0.05) { if line.contains("\"class\":\"TPV\"") { fixes += 1 } }
        }
        #expect(server.clientCount == 1, "the stuck client was cut off")
        #expect(server.reportsDroppedForSlowClients > 0)
        #expect(fixes >= 20, "the reading client went on: \(fixes) fixes")
    }

    @Test("requests as real clients send them, and errors as gpsd words them; nothing a client sends is written to the device")
    func requests() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let client = try LineClient(port: port)
        _ = client.readLine()
        client.send("?VERSION;?DEV")
        client.send("ICES;\n?FOO;\n?DEVICE={\"path\":\"\(terminal.devicePath)\",\"bps\":4800}\n")
        #expect(client.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true)
        #expect(client.readLine()?.hasPrefix("{\"class\":\"DEVICES\"") == true)
        #expect(client.readLine() == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request '?FOO'\"}")
        #expect(client.readLine()?.contains("Device settings refused") == true)
        client.send("?WATCH={\"device\":\"/dev/none\"}\n")
        #expect(client.readLine() == "{\"class\":\"ERROR\",\"message\":\"No such device as /dev/none\"}")
        // Random bytes and a long line leave the server answering.
        var generator = SystemRandomNumberGenerator()
        // Random bytes (no `?`: a hundred unknown requests would meet the rate limit, tested apart).
        let noise = (0..<10_000).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }.map { $0 == UInt8(ascii: "?") ? UInt8(ascii: "!") : $0 }
        client.send(String(decoding: noise, as: UTF8.self) + "\n")
        client.send("?" + String(repeating: "A", count: 20_000) + "\n?VERSION;\n")
        #expect(client.readLine(containing: "\"class\":\"VERSION\"") != nil)
        #expect(openDescriptorCount(terminal.devicePath) == 0)
    }

    @Test("a device added while a client watches every device: announced and opened; removed: announced as gone, closed, out of DEVICES, the client kept; added again: opened again")
    func devicesComeAndGo() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let server = GPSDServer(configuration: .init(devices: [], speed: 9600, listen: [("127.0.0.1", 0)]))
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let client = try LineClient(port: port)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(client.readLine() == "{\"class\":\"DEVICES\",\"devices\":[]}")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"") != nil)

        for round in 0..<2 {
            server.addDevice(path)
            server.addDevice(path)
            #expect(client.readLine()?.hasPrefix("{\"class\":\"DEVICE\",\"path\":\"\(path)\",\"activated\":\"") == true, "round \(round)")
            #expect(waitForDescriptors(on: path, count: 1), "round \(round)")
            #expect(terminal.waitUntilConfigured())
            terminal.write(SyntheticEpochs.epoch(round) + SyntheticEpochs.epoch(round + 1))
            #expect(client.readLine(containing: "\"class\":\"TPV\"")?.hasPrefix("{\"class\":\"TPV\",\"device\":\"\(path)\"") == true, "round \(round)")
            server.removeDevice(path)
            #expect(client.readLine(containing: "\"class\":\"DEVICE\"") == "{\"class\":\"DEVICE\",\"path\":\"\(path)\",\"activated\":0}")
            #expect(openDescriptorCount(path) == 0, "closed before removeDevice returned")
            client.send("?DEVICES;")
            #expect(client.readLine(containing: "\"class\":\"DEVICES\"") == "{\"class\":\"DEVICES\",\"devices\":[]}")
            #expect(server.devicePaths.isEmpty)
        }
    }

    @Test("raw 2: the device's bytes unchanged, garbage and binary included; raw 1: each valid sentence")
    func rawModes() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let raw2 = try LineClient(port: port)
        _ = raw2.readLine()
        raw2.send("?WATCH={\"raw\":2}\n")
        #expect(raw2.readLine(containing: "\"class\":\"WATCH\"")?.contains("\"json\":false,\"nmea\":false,\"raw\":2") == true)
        let raw1 = try LineClient(port: port)
        _ = raw1.readLine()
        raw1.send("?WATCH={\"raw\":1}\n")
        #expect(raw1.readLine(containing: "\"class\":\"WATCH\"") != nil)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        // A u-blox binary packet, a corrupted sentence, LF-only line ends: all passed on as they came.
        let binary: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x00, 0x08, 0x19]
        let corrupted = Array("$GPGGA,120000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,*00\n".utf8)
        let bytes = binary + corrupted + SyntheticEpochs.epoch(0) + [0xFF, 0x00] + SyntheticEpochs.epoch(1)
        terminal.write(bytes)
        #expect(raw2.readBytes(bytes.count) == bytes)
        let sentences = String(decoding: SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1), as: UTF8.self)
            .split(separator: "\r\n").map(String.init)
        var received: [String] = []
        while received.count < sentences.count, let line = raw1.readLine() { received.append(line) }
        #expect(received == sentences)
    }

    @Test("NMEA mode switched on and off while watching: sentences only while it is on, TPVs throughout; the device stays open")
    func nmeaSwitchedOnAndOff() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let client = try openingWatcher(port, terminal)
        /// Writes epochs `range` and reads up to the TPV of the last one but one (the last may
        /// wait for the next to end it); returns the NMEA lines read on the way.
        func sentences(during range: ClosedRange<Int>) -> [String]? {
            terminal.write(range.flatMap { SyntheticEpochs.epoch($0) })
            var lines: [String] = []
            while let line = client.readLine() {
                if line.hasPrefix("$") { lines.append(line) }
                if line.contains("\"class\":\"TPV\""), line.contains(SyntheticEpochs.time(range.upperBound - 1)) { return lines }
            }
            return nil
        }
        #expect(sentences(during: 0...2) == [])
        client.send("?WATCH={\"nmea\":true}\n")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"")?.contains("\"nmea\":true") == true)
        let on = try #require(sentences(during: 3...5))
        #expect(on.contains { $0.hasPrefix("$GPRMC") }, "\(on)")
        client.send("?WATCH={\"nmea\":false}\n")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"")?.contains("\"nmea\":false") == true)
        // Lines queued before the switch may still come with the next epochs; none after them.
        #expect(sentences(during: 6...8) != nil)
        #expect(sentences(during: 9...11) == [])
        #expect(openDescriptorCount(terminal.devicePath) == 1)
    }

    @Test("hostile clients (random bytes, a megabyte with no line end, requests a byte at a time, a thousand connections dropped) while another watches: it misses no epoch")
    func hostileClients() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let reader = try openingWatcher(port, terminal)
        let epochs = 60
        let written = terminal.writeEpochs(0...epochs, every: 20_000)
        defer { written.wait() }
        var generator = SystemRandomNumberGenerator()
        let noisy = try LineClient(port: port)
        noisy.send(bytes: (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let long = try LineClient(port: port)
        long.send(bytes: [UInt8](repeating: UInt8(ascii: "?"), count: 1) + [UInt8](repeating: UInt8(ascii: "W"), count: 1 << 20))
        let slow = try LineClient(port: port)
        for byte in "?WATCH={\"enable\":true,\"json\":true};?POLL;".utf8 { slow.send(bytes: [byte]) }
        for _ in 0..<1000 { _ = try LineClient(port: port).readLine() }
        // The epoch after the last is what completes it: every epoch up to `epochs - 1`.
        var times: [String] = []
        while times.count < epochs, let line = reader.readLine(containing: "\"class\":\"TPV\"", seconds: 10) {
            if let range = line.range(of: "\"time\":\"") { times.append(String(line[range.upperBound...].prefix(24))) }
        }
        #expect(times == (0..<epochs).map(SyntheticEpochs.time))
        #expect(slow.readLine(containing: "\"class\":\"POLL\"") != nil, "the request sent a byte at a time was read")
        long.send("\n?VERSION;\n")
        #expect(long.readLine(containing: "\"class\":\"VERSION\"") != nil, "the long line was skipped, the next request read")
        #expect(server.reportsDroppedForSlowClients == 0)
    }

    @Test("two receivers at once: a client watching every device gets each one's TPV tagged with it; one watching a device gets only that one's, and only it is open for it")
    func severalReceivers() throws {
        let first = try PseudoTerminal(), second = try PseudoTerminal()
        let server = GPSDServer(configuration: .init(devices: [first.devicePath, second.devicePath], speed: 9600, listen: [("127.0.0.1", 0)]))
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let one = try LineClient(port: port)
        _ = one.readLine()
        one.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"\(second.devicePath)\"}\n")
        #expect(one.readLine(containing: "\"class\":\"WATCH\"")?.contains("\"device\":\"\(second.devicePath)\"") == true)
        #expect(waitForDescriptors(on: second.devicePath, count: 1))
        #expect(openDescriptorCount(first.devicePath) == 0, "nobody watches the first")
        let all = try #require(try watcher(port))
        #expect(waitForDescriptors(on: first.devicePath, count: 1))
        #expect(first.waitUntilConfigured() && second.waitUntilConfigured())
        for index in 0..<4 {
            first.write(SyntheticEpochs.epoch(index))
            second.write(SyntheticEpochs.epoch(100 + index))
            usleep(20_000)
        }
        var seen: [String: Set<String>] = [:]
        while seen.values.reduce(0, { $0 + $1.count }) < 6, let line = all.readLine(containing: "\"class\":\"TPV\"") {
            for path in [first.devicePath, second.devicePath] where line.hasPrefix("{\"class\":\"TPV\",\"device\":\"\(path)\"") {
                if let range = line.range(of: "\"time\":\"") { seen[path, default: []].insert(String(line[range.upperBound...].prefix(24))) }
            }
        }
        #expect(seen[first.devicePath] == Set((0..<3).map(SyntheticEpochs.time)))
        #expect(seen[second.devicePath] == Set((100..<103).map(SyntheticEpochs.time)))
        var onlySecond: [String] = []
        while onlySecond.count < 3, let line = one.readLine(containing: "\"class\":\"TPV\"") { onlySecond.append(line) }
        #expect(onlySecond.count == 3 && onlySecond.allSatisfy { $0.hasPrefix("{\"class\":\"TPV\",\"device\":\"\(second.devicePath)\"") })
    }

    @Test("a client that floods requests and never reads: no request is answered while its replies wait, nothing more is read, others are served",
          arguments: ["?POLL;", "?DEVICES;", "?VERSION;", "?DEVICE;", #"?WATCH={"enable":true,"json":true,"nmea":true};"#, "?FOO;", "?WATCH={\n"])
    func requestFlood(_ request: String) throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal)
        defer { server.stop() }
        let flooder = try LineClient(port: port, receiveBuffer: 4096)
        let sent = flooder.flood(Array(String(repeating: request, count: max(1, 4096 / request.utf8.count)).utf8), seconds: 2)
        // Before, the server read all it was sent and queued every reply: gigabytes.
        #expect(sent < 24 << 20, "\(sent) bytes of \(request.debugDescription) taken in 2 s")
        let other = try LineClient(port: port)
        #expect(other.readLine(seconds: 5)?.hasPrefix("{\"class\":\"VERSION\"") == true, "others are served")
        other.send("?DEVICES;")
        #expect(other.readLine(seconds: 5)?.hasPrefix("{\"class\":\"DEVICES\"") == true)
    }

    @Test("a client that watches nothing and completes no request in time is let go, however it trickles bytes; a silent watcher stays")
    func requestTimeout() throws {
        let terminal = try PseudoTerminal()
        let (server, port) = try serve(terminal, requestTimeout: .seconds(1))
        defer { server.stop() }
        let watcher = try #require(try watcher(port))
        let trickler = try LineClient(port: port)
        let stayed = trickler.trickle(Array("?VERSIONVERSIONVERSIONVERSIONVERSIONVERSIONVERSION".utf8), interval: 0.1, seconds: 8)
        #expect(stayed < 4, "let go after \(stayed) s")
        #expect(server.refusals.timedOut == 1)
        watcher.send("?POLL;")
        #expect(watcher.readLine(containing: "\"class\":\"POLL\"") != nil, "the watcher, silent for as long, is still served")
    }
}
