#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve`'s standard error under faults: a receiver on the network whose every epoch jumps
/// (each one an integrity event serve would say), at full rate; standard error that nobody
/// reads, or that is read. Serving never waits for the messages, and the messages stay at one
/// line a second for each kind and receiver.
@Suite("serve's messages under faults", .mayBlock, .serialized)
struct ServeMessageFaultTests {
    /// `count` epochs a second apart whose position jumps 1° of latitude (111 km) at each: a
    /// spoofed or broken receiver, every epoch flagged.
    static func jumpingEpochs(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 140)
        for index in 0..<count {
            let seconds = 12 * 3600 + index % 43_200
            let time = String(format: "%02d%02d%02d.00", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
            let latitude = index % 2 == 0 ? "5207.4074" : "5307.4074"
            bytes += SyntheticEpochs.sentence("GPGGA,\(time),\(latitude),N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,").utf8
            bytes += SyntheticEpochs.sentence("GPRMC,\(time),A,\(latitude),N,00419.2659,E,0.0,0.0,050624,,,A").utf8
        }
        return bytes
    }

    @Test("standard error that nobody reads (a full pipe): clients keep getting reports, a new client gets VERSION, SIGTERM stops serve within 5 s, memory stays under 64 MB")
    func unreadErrorOutput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-messages-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let receiver = try LoopbackNMEAServer(bytes: Self.jumpingEpochs(40_000), connections: 50, holdsOpen: true)
        defer { receiver.close() }
        mkfifo(folder + "/serve.err", 0o600)
        let reader = open(folder + "/serve.err", O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let device = "tcp://127.0.0.1:\(receiver.port)"
        let serve = try ChildProcess(Command.executable.path, ["serve", device, "--listen", "127.0.0.1:0"],
                                     errorPath: folder + "/serve.err")
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }
        var said = ""
        try #require(eventually {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(reader, &buffer, buffer.count)
            if count > 0 { said += String(decoding: buffer[..<count], as: UTF8.self) }
            return said.contains(" on 127.0.0.1:") && said.hasSuffix("\n")
        })
        let port = try #require(said.firstMatch(of: /on 127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        // The pipe filled to the brim, and never read again: serve's next line cannot go out.
        let filler = open(folder + "/serve.err", O_WRONLY | O_NONBLOCK)
        try #require(filler >= 0)
        defer { close(filler) }
        let block = [UInt8](repeating: 0x2E, count: 4096)
        while block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        try #require(errno == EAGAIN)

        let client = try LineClient(port: port)
        client.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"\(device)\"};")
        #expect(client.readLine(containing: "position-jump", seconds: 15) != nil, "flagged reports reach the watcher")
        // Reports keep coming while every event waits for the pipe.
        var reports = 0
        let until = Date().addingTimeInterval(2)
        while Date() < until, let line = client.readLine(seconds: 1) {
            if line.contains("\"class\":\"TPV\"") { reports += 1 }
        }
        #expect(reports > 10, "\(reports) reports in 2 s")
        let newcomer = try LineClient(port: port)
        #expect(newcomer.readLine(containing: "\"class\":\"VERSION\"", seconds: 5) != nil, "a new client is answered")
        let resident = serve.status("VmRSS")
        #expect(resident > 0 && resident < 64 * 1024, "\(resident) kB resident")
        let asked = Date()
        serve.terminate()
        let stopped = serve.exits(within: 5)
        #expect(stopped, "stopped \(Date().timeIntervalSince(asked)) s after SIGTERM")
        print("serve stopped \(Date().timeIntervalSince(asked)) s after SIGTERM")
        if !stopped { kill(serve.pid, SIGKILL) }
    }

    @Test("a receiver whose every epoch is flagged, at full rate: at most one integrity line a second, the last of each second with its count")
    func oneLineASecond() throws {
        let epochs = 40_000
        let receiver = try LoopbackNMEAServer(bytes: Self.jumpingEpochs(epochs), connections: 50, holdsOpen: true)
        defer { receiver.close() }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-messages-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let device = "tcp://127.0.0.1:\(receiver.port)"
        let serve = try ServeProcess([device], errorPath: errors)
        defer { serve.stop() }
        let client = try LineClient(port: serve.port)
        let started = Date()
        client.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"\(device)\"};")
        // The last epoch's report, or 30 s.
        let last = String(format: "\"time\":\"2024-06-05T%02d:%02d:%02d", (12 * 3600 + epochs - 1) / 3600 % 24,
                          (12 * 3600 + epochs - 1) / 60 % 60, (12 * 3600 + epochs - 1) % 60)
        var flagged = 0
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, let line = client.readLine(seconds: 5) {
            if line.contains("position-jump") { flagged += 1 }
            if line.contains(last) { break }
        }
        // The interval that was open when the flood ended says its count: waited for, not slept.
        _ = waitForChanges(to: serve.errorPath, seconds: 5) { serve.said.contains("more like it in 1 s)") }
        let elapsed = Date().timeIntervalSince(started)
        let lines = serve.said.split(separator: "\n").filter { $0.contains("integrity: position-jump") }
        #expect(flagged > 1000, "\(flagged) flagged reports")
        #expect(lines.count >= 1 && Double(lines.count) <= elapsed + 2, "\(lines.count) lines in \(elapsed) s")
        #expect(lines.contains { $0.contains("more like it in 1 s)") }, "\(lines.prefix(3))")
    }
}
