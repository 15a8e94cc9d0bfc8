#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

@Suite("nmeastream demo and simulate", .mayBlock)
struct DemoSimulateTests {
    @Test("demo prints live fixes within a few seconds: a receiver that moves, whose clock starts now and never runs backwards")
    func demo() throws {
        let start = Date()
        let result = try Command.run(["demo", "--count", "12", "--speed", "10", "--format", "json"])
        #expect(result.status == 0, "\(result.error)")
        let fixes = result.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(fixes.count == 12)
        let times = fixes.compactMap { ($0["time"] as? String).flatMap(TPVEpochs.milliseconds) }
        #expect(times.count == 12 && zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 1000 }, "one a second, forwards: \(times)")
        let now = Int64(start.timeIntervalSince1970 * 1000)
        #expect(times.first.map { abs($0 - now) < 5000 } == true, "the first fix's time is now")
        let positions = Set(fixes.compactMap { fix in (fix["lat"] as? Double).map { "\($0) \(fix["lon"] ?? "")" } })
        #expect(positions.count == 12, "it moves")
        #expect(fixes.allSatisfy { $0["mode"] as? Int == 3 })
        #expect(result.error.contains("demo: a simulated receiver going round a park in Delft, on /dev/pts/"))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test("simulate is a receiver other programs open: read gets its fixes; Ctrl-C removes the link and exits 0")
    func simulate() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-gps-\(UUID().uuidString)").path
        let simulator = Process()
        simulator.executableURL = Command.executable
        simulator.arguments = ["simulate", "--link", link]
        let output = Pipe()
        simulator.standardOutput = output
        simulator.standardError = FileHandle.nullDevice
        try simulator.run()
        defer { if simulator.isRunning { simulator.terminate() } }
        // Its first line is the device path.
        var line = Data()
        while !line.contains(0x0A) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line.append(byte)
        }
        let path = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.hasPrefix("/dev/pts/"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == path)

        let result = try Command.run(["read", "--format", "json", "--count", "2", link])
        #expect(result.status == 0, "\(result.error)")
        let tpv = result.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(tpv.count == 2)
        // The made-up track starts now, around Delft.
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(tpv.last?.contains("\"time\":\"\(year)-") == true)
        #expect(tpv.last?.contains("\"lat\":52.01") == true)

        kill(simulator.processIdentifier, SIGINT)
        simulator.waitUntilExit()
        #expect(simulator.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: link), "the link is removed")
    }
}

@Suite("the live panel", .mayBlock)
struct LivePanelTests {
    @Test("in a real terminal (tmux, 80 x 24), the text format is a panel that fits: the fix and a satellite table, redrawn in place")
    func panel() throws {
        let tmux = "/usr/bin/tmux"
        try #require(FileManager.default.isExecutableFile(atPath: tmux), "tmux is not installed (apt-get install tmux)")
        // One shell runs the session and captures the pane once the third fix is drawn (or
        // after 10 s), then ends the session.
        let server = "nmeastream-test-\(getpid())"
        let shell = """
            tmux -L \(server) new-session -d -x 80 -y 24 "'\(Command.executable.path)' demo --speed 4" </dev/null >/dev/null 2>&1
            for i in $(seq 100); do
              sleep 0.1
              tmux -L \(server) capture-pane -p > "$1"
              grep -q BeiDou "$1" && [ "$i" -ge 20 ] && break
            done
            tmux -L \(server) kill-server </dev/null >/dev/null 2>&1
            """
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-pane-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: capture) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", shell, "sh", capture.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let screen = String(decoding: (try? Data(contentsOf: capture)) ?? Data(), as: UTF8.self)
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("nmeastream demo") == true, "\(screen)")
        #expect(lines.contains { $0.hasPrefix("Latitude   52.01") })
        #expect(lines.contains { $0.hasPrefix("GNSS      PRN  Elev  Azim   SNR  Used") })
        // One row per satellite of the four constellations, the used ones marked.
        #expect(lines.filter { $0.hasPrefix("GPS ") }.count == 6)
        #expect(lines.contains { $0.hasPrefix("Galileo   330") && $0.hasSuffix("N") })
        #expect(lines.contains { $0.hasPrefix("BeiDou    411") && $0.hasSuffix("Y") })
        // The whole panel in an 80 x 24 terminal: the last satellite row on the screen.
        #expect(lines.contains { $0.hasPrefix("BeiDou    412") }, "\(screen)")
        #expect(lines.allSatisfy { $0.count <= 80 })
        // Redrawn in place: one panel on the screen, not a scroll of them.
        #expect(lines.filter { $0.hasPrefix("Latitude") }.count == 1)
    }
}
