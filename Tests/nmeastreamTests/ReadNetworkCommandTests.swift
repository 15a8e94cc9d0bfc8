#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// Whether Debian's socat is here to play an NMEA server.
private var socatInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/socat") }

/// `read` with a network receiver's URL, against socat playing a log as an NMEA server.
@Suite("read over the network", .mayBlock)
struct ReadNetworkCommandTests {
    @Test("read tcp://: the server's fixes, the connection said on standard error", .enabled(if: socatInstalled, "socat is not installed"))
    func tcp() throws {
        let port = freeLoopbackPort()
        // By its pid: socat's children for each connection would hold Process's descriptor.
        let socat = try ChildProcess("/usr/bin/socat", ["-u", "OPEN:\(Command.fixture("ublox-multi.nmea"))",
                                                       "TCP-LISTEN:\(port),reuseaddr,bind=127.0.0.1,fork"])
        defer {
            socat.terminate()
            _ = socat.waitForExit()
        }
        // Tried again until socat listens (1 s, then 2 s).
        let result = try Command.run(["read", "--format", "json", "--count", "3", "--timeout", "20", "tcp://127.0.0.1:\(port)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputLines.filter { $0.contains(#""class":"TPV""#) }.count == 3)
        #expect(result.error.contains("connected to tcp://127.0.0.1:\(port)"), "\(result.error)")
    }

    @Test("read tcp:// with nothing listening: each refusal said with its wait, then --timeout's exit 75")
    func refused() throws {
        let port = freeLoopbackPort()
        let result = try Command.run(["read", "--timeout", "2.5", "tcp://127.0.0.1:\(port)"])
        #expect(result.status == 75, "\(result.error)")
        #expect(result.error.contains("tcp://127.0.0.1:\(port): connection refused; trying again in 1 s"), "\(result.error)")
        #expect(result.error.contains("trying again in 2 s"), "\(result.error)")
        #expect(result.error.contains("no bytes from tcp://127.0.0.1:\(port) in 2.5 s: is the peer up"), "\(result.error)")
    }

    @Test("read udp://: listening is said; nothing sent by --timeout is exit 75, asking whether the peer is up")
    func udpSilent() throws {
        let port = freeLoopbackPort()
        let result = try Command.run(["read", "--timeout", "1", "udp://:\(port)"])
        #expect(result.status == 75, "\(result.error)")
        #expect(result.error.contains("listening on udp://:\(port)"), "\(result.error)")
        #expect(result.error.contains("no bytes from udp://:\(port) in 1.0 s: is the peer up"), "\(result.error)")
    }

    @Test("a URL that is not a receiver's, or --speed with one: a usage error saying what is wrong")
    func usage() throws {
        let wrong = try Command.run(["read", "tcp://host"])
        #expect(wrong.status == 64 && wrong.error.contains("no port"), "\(wrong.error)")
        let speed = try Command.run(["read", "--speed", "9600", "udp://:10110"])
        #expect(speed.status == 64 && speed.error.contains("reached over the network"), "\(speed.error)")
    }

    /// The TPV lines of `output` without their `device` (a log's path, a URL).
    static func fixes(_ lines: [String]) -> [String] {
        lines.filter { $0.contains(#""class":"TPV""#) }.map { $0.replacing(/"device":"[^"]*",/, with: "") }
    }

    @Test("read tcp:// of a log's server, dropped mid-log and started again: reconnected and said; every fix of the log's replay, once", .enabled(if: socatInstalled, "socat is not installed"))
    func serverDroppedMidLog() throws {
        let fixture = Command.fixture("ublox-multi.nmea")
        let replayed = Self.fixes(try Command.run(["replay", "--format", "json", fixture]).outputLines)
        try #require(replayed.count == 10)
        // Two halves, cut where a cycle starts (its RMC): the server drops between two epochs.
        // (Split as bytes: CR LF is one Character.)
        let lines = try Data(contentsOf: URL(fileURLWithPath: fixture)).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) + "\n" }
        let cycles = lines.indices.filter { lines[$0].hasPrefix("$GNRMC") }
        try #require(cycles.count == 10)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-drop-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try lines[..<cycles[5]].joined().write(toFile: folder + "/first.nmea", atomically: true, encoding: .utf8)
        try lines[cycles[5]...].joined().write(toFile: folder + "/second.nmea", atomically: true, encoding: .utf8)
        let port = freeLoopbackPort()
        // One connection each (no fork): socat exits once it has sent its half.
        func server(_ half: String) throws -> ChildProcess {
            try ChildProcess("/usr/bin/socat", ["-u", "OPEN:\(folder)/\(half).nmea", "TCP-LISTEN:\(port),reuseaddr,bind=127.0.0.1"])
        }
        let first = try server("first")
        defer {
            first.terminate()
            _ = first.waitForExit()
        }
        let read = try ChildProcess(Command.executable.path, ["read", "--format", "json", "--count", "10", "--timeout", "30", "tcp://127.0.0.1:\(port)"],
                                    outputPath: folder + "/out", errorPath: folder + "/err")
        defer {
            read.terminate()
            _ = read.waitForExit()
        }
        let said = { (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "" }
        #expect(waitForChanges(to: folder, seconds: 20) { said().contains("closed by the peer") }, "\(said())")
        let second = try server("second")
        defer {
            second.terminate()
            _ = second.waitForExit()
        }
        #expect(read.waitForExit() == 0, "\(said())")
        let output = (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? ""
        #expect(Self.fixes(output.split(separator: "\n").map(String.init)) == replayed)
        #expect(said().components(separatedBy: "connected to tcp://127.0.0.1:\(port)").count - 1 == 2, "\(said())")
        #expect(said().contains("tcp://127.0.0.1:\(port): closed by the peer; trying again in 1 s"), "\(said())")
    }

    @Test("read udp:// of a log's sentences sent one a datagram, as multiplexers send them: the fixes of the log's replay")
    func udpDatagramsLikeReplay() throws {
        let fixture = Command.fixture("ublox-multi.nmea")
        let replayed = Self.fixes(try Command.run(["replay", "--format", "json", fixture]).outputLines)
        let port = freeLoopbackPort(datagram: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-udp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The last epoch ends only when another starts: the nine before it.
        let read = try ChildProcess(Command.executable.path, ["read", "--format", "json", "--count", "9", "--timeout", "30", "udp://:\(port)"],
                                    outputPath: folder + "/out", errorPath: folder + "/err")
        defer {
            read.terminate()
            _ = read.waitForExit()
        }
        let said = { (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "" }
        try #require(waitForChanges(to: folder) { said().contains("listening on udp://:\(port)") }, "\(said())")
        let lines = try Data(contentsOf: URL(fileURLWithPath: fixture)).split(separator: 0x0A).map { Array($0) + [0x0A] }
        for line in lines {
            // A receiver's pause before each cycle (its RMC comes first).
            if line.starts(with: Array("$GNRMC".utf8)) { usleep(30_000) }
            sendDatagrams([line], toPort: port)
        }
        #expect(read.waitForExit() == 0, "\(said())")
        let output = (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? ""
        #expect(Self.fixes(output.split(separator: "\n").map(String.init)) == Array(replayed.prefix(9)))
    }
}
