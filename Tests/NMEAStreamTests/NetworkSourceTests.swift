import Dispatch
import Foundation
import TestSupport
import Testing
@testable import NMEAStream

/// Receivers over the network: URLs read, and NMEA over TCP and UDP from loopback peers,
/// with the peer down at the start, closing mid-way and coming back.
@Suite("Network sources", .mayBlock)
struct NetworkSourceTests {
    @Test("URLs: tcp, udp and gpsd read, with IPv6 in brackets and gpsd's port by default; what is wrong is said")
    func endpoints() throws {
        #expect(try NetworkEndpoint(parsing: "tcp://192.168.1.20:10110") == .tcp(host: "192.168.1.20", port: 10110))
        #expect(try NetworkEndpoint(parsing: "tcp://[::1]:2000") == .tcp(host: "::1", port: 2000))
        #expect(try NetworkEndpoint(parsing: "udp://:10110") == .udp(address: nil, port: 10110))
        #expect(try NetworkEndpoint(parsing: "udp://239.192.0.1:10110") == .udp(address: "239.192.0.1", port: 10110))
        #expect(try NetworkEndpoint(parsing: "gpsd://pi.local") == .gpsd(host: "pi.local", port: 2947, device: nil))
        #expect(try NetworkEndpoint(parsing: "gpsd://pi.local:2948/dev/ttyACM0") == .gpsd(host: "pi.local", port: 2948, device: "/dev/ttyACM0"))
        for url in ["tcp://[::1]:2000", "udp://:10110", "udp://239.192.0.1:10110", "gpsd://pi.local:2948/dev/ttyACM0"] {
            #expect(try NetworkEndpoint(parsing: url).description == url)
        }
        let wrong: [(String, String)] = [
            ("tcp://host", "no port"), ("tcp://:10110", "no host"), ("tcp://host:70000", "from 1 to 65535"),
            ("tcp://::1:2000", "brackets"), ("ftp://host:21", "unknown scheme"), ("gpsd://", "no host"),
            ("tcp://[::1:2000", "closing ]"), ("udp://:10110/x", "no path"),
            // A line feed in a device name would end gpsd's request and start another.
            ("gpsd://pi.local/dev/ttyACM0\n?WATCH={\"raw\":1}", "a control character (U+000A) in the URL"),
            ("tcp://ho\u{7F}st:10110", "a control character (U+007F)"),
        ]
        #expect(try NetworkEndpoint(parsing: "udp://[ff02::1]:10110") == .udp(address: "ff02::1", port: 10110))
        // A local address, as gpsd(8) documents udp://127.0.0.1:5000.
        #expect(try NetworkEndpoint(parsing: "udp://127.0.0.1:5000") == .udp(address: "127.0.0.1", port: 5000))
        #expect(try NetworkEndpoint(parsing: "udp://[::1]:5000").description == "udp://[::1]:5000")
        #expect(try NetworkEndpoint(parsing: "udp://gps-group.local:10110") == .udp(address: "gps-group.local", port: 10110))
        for (url, reason) in wrong {
            #expect(throws: NetworkEndpointError.self) { try NetworkEndpoint(parsing: url) }
            do { _ = try NetworkEndpoint(parsing: url) } catch { #expect(error.reason.contains(reason), "\(url): \(error.reason)") }
        }
        #expect(try GPSSource.named("/dev/ttyACM0", speed: .automatic) == .serial(path: "/dev/ttyACM0", speed: .automatic))
        #expect(try GPSSource.named("udp://:10110", speed: .automatic) == .network(.udp(address: nil, port: 10110)))
    }

    @Test("the wait before trying again: 1 s, doubling to 30 s, 1 s again once data came")
    func backoff() {
        var backoff = ReconnectBackoff()
        #expect((0..<7).map { _ in backoff.delay() } == [1, 2, 4, 8, 16, 30, 30])
        backoff.reset()
        #expect(backoff.delay() == 1)
    }

    @Test("gpsd's JSON lines are taken out of a raw:2 stream, the receiver's bytes (NMEA and UBX) kept, cut anywhere")
    func gpsdRawFilter() {
        let ubx: [UInt8] = [0xB5, 0x62, 0x01, 0x61, 0x04, 0x00, 0x0A, 0x7B, 0x22, 0x63, 0xF0, 0x10]
        let receiver = Array("$GPGGA,120000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,*5D\r\n".utf8) + ubx
            + Array("{not gpsd's}\r\n".utf8)
        let stream = Array(#"{"class":"VERSION","release":"3.22"}"#.utf8) + [0x0D, 0x0A]
            + Array(receiver.prefix(40)) + Array(receiver.dropFirst(40))
            + Array(#"{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}"#.utf8) + [0x0D, 0x0A]
        for size in [1, 2, 5, 11, 64, stream.count] {
            var filter = GPSDRawFilter()
            var output: [UInt8] = []
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + size)
                Array(stream[offset..<end]).withUnsafeBytes { filter.filter($0, into: &output) }
                offset = end
            }
            #expect(output == receiver, "chunks of \(size)")
        }
        #expect(String(decoding: NetworkByteSource.watchCommand(device: #"/dev/a"b"#), as: UTF8.self)
                == #"?WATCH={"enable":true,"raw":2,"device":"/dev/a\"b"}"# + "\n")
        #expect(String(decoding: NetworkByteSource.watchCommand(device: "/dev/a\n?POLL;"), as: UTF8.self)
                == #"?WATCH={"enable":true,"raw":2,"device":"/dev/a\u000a?POLL;"}"# + "\n")
    }

    @Test("tcp: a server's NMEA makes the fixes the log makes; the server closing is said with its wait, and the next connection carries on")
    func tcpServerCloses() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let server = try LoopbackNMEAServer(bytes: bytes, connections: 2)
        defer { server.close() }
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: server.port)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(recorder.wait { recorder.interruptions.count == 1 })
        #expect(recorder.connections == ["tcp://127.0.0.1:\(server.port)"])
        let first = recorder.fixes
        #expect(first == (recorder.quietCount == 0 ? expected : recorder.fixesFromTape))
        let interruption = try #require(recorder.interruptions.first)
        #expect(interruption.reason == "closed by the peer" && interruption.retryIn == 1)
        // The server's second client, a second later.
        #expect(recorder.wait { recorder.interruptions.count == 2 })
        #expect(recorder.connections.count == 2 && server.acceptedCount == 2)
        #expect(recorder.fixes.count == 2 * expected.count)
        // Data came on the first connection: the wait starts again at 1 s.
        #expect(recorder.interruptions.last?.retryIn == 1)
        #expect(recorder.error == nil && !recorder.finished)
    }

    @Test("tcp: a receiver's UBX and NMEA mixed arrive as from a port: the fixes the same bytes make")
    func tcpUBX() throws {
        // A u-blox receiver sending NAV-PVT each second with an NMEA GSV beside it.
        let gsv = Array(SyntheticEpochs.sentence("GPGSV,1,1,02,05,45,120,40,13,60,200,42").utf8)
        let bytes = (0..<8).flatMap { UBXTestFrames.navPVT(after: $0) + gsv }
        let expected = Fixtures.expectedFixes(bytes)
        try #require(expected.count >= 7)
        let server = try LoopbackNMEAServer(bytes: bytes, connections: 1)
        defer { server.close() }
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: server.port)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(recorder.wait { recorder.interruptions.count == 1 })
        #expect(recorder.fixes == (recorder.quietCount == 0 ? expected : recorder.fixesFromTape))
        #expect(recorder.fixes.map(\.latitude) == expected.map(\.latitude))
    }

    @Test("tcp: the peer down at the start is said (refused, with the wait), tried again, and read once it comes")
    func tcpPeerDownAtStart() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let port = freeLoopbackPort()
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: port)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(recorder.wait { recorder.interruptions.count >= 1 })
        let refused = try #require(recorder.interruptions.first)
        #expect(refused.reason == "connection refused" && refused.retryIn == 1, "\(refused)")
        #expect(recorder.connections.isEmpty)
        let server = try LoopbackNMEAServer(bytes: bytes, connections: 1, port: port)
        defer { server.close() }
        // The second try comes 1 s after the first, the third 2 s after that.
        #expect(recorder.wait(seconds: 10) { recorder.connections.count == 1 })
        #expect(recorder.wait { recorder.fixes.count == Fixtures.expectedFixes(bytes).count })
    }

    @Test("tcp: a host that cannot be resolved is said, and tried again")
    func unresolvable() throws {
        let reader = NMEAReader(source: .network(.tcp(host: "no-such-host.invalid", port: 10110)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(recorder.wait(seconds: 20) { !recorder.interruptions.isEmpty })
        #expect(recorder.interruptions.first?.reason.hasPrefix("cannot resolve no-such-host.invalid") == true)
        #expect(recorder.error == nil)
    }

    /// A reader of `endpoint`, started, and what it tells its delegate.
    static func reading(_ endpoint: NetworkEndpoint) -> (NMEAReader, ReaderRecorder) {
        let reader = NMEAReader(source: .network(endpoint))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        return (reader, recorder)
    }

    @Test("udp: NMEA datagrams to the port make the fixes the log makes")
    func udpDatagrams() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let port = freeLoopbackPort(datagram: true)
        let (reader, recorder) = Self.reading(.udp(address: nil, port: port))
        defer { reader.stop() }
        #expect(recorder.wait { recorder.connections == ["udp://:\(port)"] })
        // One sentence a datagram, as multiplexers send them.
        var lines: [[UInt8]] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(Array(bytes[start...index]))
            start = index + 1
        }
        sendDatagrams(lines, toPort: port)
        #expect(recorder.wait { recorder.sentences == lines.count })
        reader.stop()
        // Stopped, not ended: the epoch in progress is not delivered.
        let fixes = recorder.fixes
        #expect(fixes.count >= expected.count - 1)
        #expect(fixes == Array((recorder.quietCount == 0 ? expected : recorder.fixesFromTape).prefix(fixes.count)))
        #expect(recorder.interruptions.isEmpty)
    }

    @Test("udp with a multicast group: the group is joined, and its datagrams make the log's fixes")
    func udpMulticast() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let port = freeLoopbackPort(datagram: true)
        let (reader, recorder) = Self.reading(.udp(address: "239.255.42.99", port: port))
        defer { reader.stop() }
        #expect(recorder.wait { recorder.connections == ["udp://239.255.42.99:\(port)"] })
        let lines = bytes.split(separator: 0x0A).map { Array($0) + [0x0A] }
        sendDatagrams(lines, toPort: port, host: "239.255.42.99")
        #expect(recorder.wait { recorder.sentences == lines.count })
        reader.stop()
        let fixes = recorder.fixes
        #expect(fixes.count >= expected.count - 1)
        #expect(fixes == Array((recorder.quietCount == 0 ? expected : recorder.fixesFromTape).prefix(fixes.count)))
    }

    @Test("udp with a local address, as gpsd(8) documents udp://127.0.0.1:5000: the datagrams sent to it make the log's fixes, as udp://:PORT does")
    func udpLocalAddress() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let lines = bytes.split(separator: 0x0A).map { Array($0) + [0x0A] }
        for address in [nil, "127.0.0.1"] as [String?] {
            let port = freeLoopbackPort(datagram: true)
            let (reader, recorder) = Self.reading(.udp(address: address, port: port))
            defer { reader.stop() }
            #expect(recorder.wait { recorder.connections == ["udp://\(address ?? ""):\(port)"] })
            sendDatagrams(lines, toPort: port)
            #expect(recorder.wait { recorder.sentences == lines.count }, "\(address ?? "any"): \(recorder.sentences) of \(lines.count)")
            reader.stop()
            // Stopped, not ended: the epoch in progress is not delivered. A pause between
            // datagrams long enough to be a quiet line ends an epoch there: the reference is
            // then the log decoded with the same quiets.
            let fixes = recorder.fixes
            #expect(fixes.count >= expected.count - 1, "\(address ?? "any")")
            #expect(fixes == Array((recorder.quietCount == 0 ? expected : recorder.fixesFromTape).prefix(fixes.count)), "\(address ?? "any")")
        }
    }

    @Test("udp with an address that is not this machine's: the failure to listen is said, and tried again")
    func udpForeignAddress() throws {
        // 192.0.2.1: TEST-NET-1 (RFC 5737), no machine's.
        let (reader, recorder) = Self.reading(.udp(address: "192.0.2.1", port: freeLoopbackPort(datagram: true)))
        defer { reader.stop() }
        #expect(recorder.wait { !recorder.interruptions.isEmpty })
        #expect(recorder.interruptions.first?.reason.contains("cannot listen on 192.0.2.1") == true, "\(recorder.interruptions)")
        #expect(recorder.connections.isEmpty)
    }

    @Test("stopping while a connection is refused and waiting: released at once, and no attempt after it")
    func stopWhileWaiting() throws {
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: freeLoopbackPort())))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(recorder.wait { !recorder.interruptions.isEmpty })
        // stop() returns once the source has let go of everything it held.
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            reader.stop()
            stopped.signal()
        }
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        let count = recorder.interruptions.count
        Thread.sleep(forTimeInterval: 1.5)
        #expect(recorder.interruptions.count == count)
    }

    @Test("stopping while a connection is under way (a peer that neither accepts nor refuses): released at once, the socket closed, nothing said after it")
    func stopWhileConnecting() throws {
        let peer = try #require(SaturatedListener())
        let reader = NMEAReader(source: .network(.tcp(host: peer.host, port: peer.port)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(eventually { peer.connectionsUnderWay == 1 })
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            reader.stop()
            stopped.signal()
        }
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(peer.connectionsUnderWay == 0, "closed by the time stop() returned")
        #expect(recorder.interruptions.isEmpty && recorder.connections.isEmpty)
    }
}
