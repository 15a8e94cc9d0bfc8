#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve` fed faster than it can pass things on: receivers on the network that send at full
/// rate, merged with `--best` or sent on as datagrams with `--nmea-udp`. Every hand-off
/// between its threads is bounded: its peak memory stays under 64 MB, a client is still
/// answered, and SIGTERM stops it within 5 s.
@Suite("serve under floods from its receivers", .mayBlock, .serialized)
struct ServeFloodTests {
    /// `count` epochs of ``SyntheticEpochs`` from `first`, as one block of bytes.
    static func epochs(_ count: Int, from first: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 140)
        for index in first..<first + count { bytes += SyntheticEpochs.epoch(index % 40_000) }
        return bytes
    }

    /// Sends datagrams of ten epochs each to `port` on loopback, as fast as the kernel takes
    /// them, for `seconds`: anyone on the network who floods a `udp://` source. How many sent.
    static func flood(port: Int, seconds: Double) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let datagrams = (0..<200).map { epochs(10, from: $0 * 10) }
        let until = Date().addingTimeInterval(seconds)
        var sent = 0
        while Date() < until {
            for datagram in datagrams {
                let result = datagram.withUnsafeBytes { bytes in
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
                if result > 0 { sent += 1 }
            }
        }
        return sent
    }

    /// Stops `serve` with SIGTERM and expects it gone within 5 s (SIGKILL after that).
    static func expectStops(_ serve: ServeProcess) {
        let asked = Date()
        serve.process.terminate()
        let stopped = serve.process.exits(within: 5)
        #expect(stopped, "stopped \(Date().timeIntervalSince(asked)) s after SIGTERM")
        print("serve stopped \(Date().timeIntervalSince(asked)) s after SIGTERM")
        if !stopped { kill(serve.process.pid, SIGKILL) }
    }

    @Test("--best with a tcp:// member at full rate and a udp:// member flooded with valid sentences: under 64 MB, best: still served, stopped within 5 s")
    func bestMembersFlood() throws {
        let stream = try LoopbackNMEAServer(bytes: Self.epochs(300_000), connections: 50, chunkSize: 65_536, holdsOpen: true)
        defer { stream.close() }
        let port = freeLoopbackPort(datagram: true)
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-flood-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let serve = try ServeProcess(["tcp://127.0.0.1:\(stream.port)", "udp://:\(port)", "--best"], errorPath: errors)
        defer { serve.stop() }
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"best:\"};")
        #expect(client.readLine(containing: "\"class\":\"TPV\"", seconds: 15) != nil, "\(serve.said)")
        let sent = Self.flood(port: port, seconds: 8)
        let peak = serve.process.status("VmHWM")
        print("serve --best under floods: peak \(peak) kB, \(sent) datagrams sent")
        #expect(peak > 0 && peak < 64 * 1024, "peak \(peak) kB")
        let newcomer = try LineClient(port: serve.port)
        #expect(newcomer.readLine(containing: "\"class\":\"VERSION\"", seconds: 5) != nil)
        Self.expectStops(serve)
    }

    @Test("--nmea-udp from a udp:// source flooded with valid sentences, to four destinations, one that never reads: under 64 MB, stopped within 5 s")
    func datagramFeedFlood() throws {
        let port = freeLoopbackPort(datagram: true)
        let destination = DatagramReceiver()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-flood-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        // Four destinations: four datagrams to send for each sentence read.
        let destinations = [destination.port] + (0..<3).map { _ in freeLoopbackPort(datagram: true) }
        let serve = try ServeProcess(["udp://:\(port)"] + destinations.flatMap { ["--nmea-udp", "127.0.0.1:\($0)"] }, errorPath: errors)
        defer { serve.stop() }
        // The source is read with no client (--nmea-udp keeps it open).
        #expect(waitForChanges(to: serve.errorPath) { serve.said.contains("NMEA datagrams to") })
        let sent = Self.flood(port: port, seconds: 8)
        #expect(destination.receive(seconds: 5) != nil, "\(serve.said)")
        let peak = serve.process.status("VmHWM")
        print("serve --nmea-udp under a flood: peak \(peak) kB, \(sent) datagrams sent")
        #expect(peak > 0 && peak < 64 * 1024, "peak \(peak) kB")
        let client = try LineClient(port: serve.port)
        #expect(client.readLine(containing: "\"class\":\"VERSION\"", seconds: 5) != nil)
        Self.expectStops(serve)
        withExtendedLifetime(destination) {}
    }
}
