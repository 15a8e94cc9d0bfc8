import Foundation
import Testing
import TestSupport

/// `serve --best` with two `simulate --control` receivers: the merged device `best:` carries
/// the preferred receiver, fails over to the other within one cycle when it loses its fix,
/// falls to 2D or is paused (SIGSTOP), and comes back after the hold, with no epoch twice,
/// no gap and no flapping; gpspipe and Python's gps module read it unchanged.
@Suite("serve --best", .mayBlock, .serialized)
struct BestDeviceTests {
    /// Two receivers (a, preferred, and b), each a `simulate --control` fed through a FIFO, and
    /// `serve a b --best`.
    final class Rig {
        let folder: String
        let a: ChildProcess, b: ChildProcess
        let serve: ServeProcess
        let controlA: FileHandle
        let port: Int
        var deviceA: String { folder + "/a" }
        var deviceB: String { folder + "/b" }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-best-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            mkfifo(folder + "/control-a", 0o600)
            a = try ChildProcess(Command.executable.path, ["simulate", "--control", "--link", folder + "/a"],
                                 inputPath: folder + "/control-a", errorPath: folder + "/a.err")
            b = try ChildProcess(Command.executable.path, ["simulate", "--link", folder + "/b"])
            controlA = try #require(FileHandle(forWritingAtPath: folder + "/control-a"))
            let folder = self.folder
            try #require(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/a") && FileManager.default.fileExists(atPath: folder + "/b") })
            serve = try ServeProcess([folder + "/a", folder + "/b", "--best"], errorPath: folder + "/serve.err")
            port = serve.port
        }

        /// Tells receiver a to inject `command` from its next epoch.
        func control(_ command: String) { controlA.write(Data((command + "\n").utf8)) }

        func stop() {
            serve.stop()
            for process in [a, b] {
                kill(process.pid, SIGCONT)
                process.terminate()
                _ = process.waitForExit()
            }
            try? controlA.close()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// One TPV as the test keeps it.
    struct Report {
        var device: String
        var second: Int
        var mode: Int
        var source: String?
        var integrity: [String]
    }

    /// Reads every device's TPVs from `client` until `done` says so of those read (or 20 s
    /// pass); returns them all, in order.
    static func collect(_ client: LineClient, into reports: inout [Report], until done: ([Report]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard let line = client.readLine(seconds: 5) else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["class"] as? String == "TPV", let device = object["device"] as? String,
                  let time = (object["time"] as? String).flatMap(ServeProcess.seconds(ofReportTime:)) else { continue }
            reports.append(Report(device: device, second: Int(time.rounded()), mode: object["mode"] as? Int ?? 0,
                                  source: object["source"] as? String, integrity: object["integrity"] as? [String] ?? []))
            if done(reports) { return true }
        }
        return false
    }

    @Test("best: fails over within a cycle on no fix, 2D and SIGSTOP, and comes back after the hold: no epoch twice, no gap, no flapping")
    func failover() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let client = try LineClient(port: rig.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        var reports: [Report] = []
        let a = rig.deviceA, b = rig.deviceB
        func best(_ reports: [Report]) -> [Report] { reports.filter { $0.device == "best:" } }
        /// Whether best: has carried a for `count` epochs in a row, last.
        func carriesA(_ count: Int) -> ([Report]) -> Bool {
            { reports in best(reports).suffix(count).count == count && best(reports).suffix(count).allSatisfy { $0.source == a } }
        }
        try #require(Self.collect(client, into: &reports, until: carriesA(3)), "\(rig.serve.said)")
        var faults: [(start: Int, kind: String)] = []
        for fault in ["no-fix", "2d", "stop"] {
            if fault == "stop" {
                kill(rig.a.pid, SIGSTOP)
                let stoppedAfter = reports.last { $0.device == a }?.second ?? 0
                faults.append((stoppedAfter + 1, fault))
                try #require(Self.collect(client, into: &reports) { best($0).suffix(3).allSatisfy { $0.source == b } })
                kill(rig.a.pid, SIGCONT)
            } else {
                rig.control(fault)
                try #require(Self.collect(client, into: &reports) { $0.last?.device == a && $0.last!.mode == (fault == "2d" ? 2 : 1) })
                faults.append((reports.last!.second, fault))
                try #require(Self.collect(client, into: &reports) { best($0).suffix(3).allSatisfy { $0.source == b } })
                rig.control("3d")
            }
            try #require(Self.collect(client, into: &reports, until: carriesA(3)), "after \(fault): \(rig.serve.said)")
        }
        let merged = best(reports)
        let seconds = merged.map(\.second)
        let summary = merged.map { "\($0.second % 100):\($0.source == a ? "a" : $0.source == b ? "b" : "?")" }.joined(separator: " ")
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $1 == $0 + 1 }, "every second once, in order, no gap: \(summary)")
        #expect(merged.allSatisfy { $0.mode == 3 && $0.integrity.isEmpty }, "only 3D fixes: \(summary)")
        // Each carried fix is its receiver's own fix of that second.
        for report in merged {
            let own = reports.first { $0.device == report.source && $0.second == report.second }
            #expect(own?.mode == 3, "\(report.second) from \(report.source ?? "?")")
        }
        // Within one cycle: every second of a fault is b's (a's first bad second included).
        for fault in faults {
            let faulted = merged.first { $0.second == fault.start }
            #expect(faulted?.source == b, "\(fault.kind) at \(fault.start % 100): \(summary)")
        }
        // No flapping: a to b and back, once per fault (b may have been first, before a took over).
        var changes = 0
        for (before, after) in zip(merged, merged.dropFirst()) where before.source != after.source { changes += 1 }
        let firstIsB = merged.first?.source == b
        #expect(changes == 2 * faults.count + (firstIsB ? 1 : 0), "\(summary)")
        let said = rig.serve.said
        for reason in ["fell to no fix", "fell to 2D", "went silent"] { #expect(said.contains(reason), "\(said)") }
    }

    @Test("A member missing at start, then plugged in, killed (SIGKILL) and started again: best: carries the other meanwhile, with no epoch twice and no gap")
    func memberDownKilledRestarted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-best-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = folder + "/a", b = folder + "/b"
        let receiverB = try ChildProcess(Command.executable.path, ["simulate", "--link", b])
        defer {
            receiverB.terminate()
            _ = receiverB.waitForExit()
        }
        try #require(waitForChanges(to: b) { FileManager.default.fileExists(atPath: b) })
        // a is not there yet.
        let serve = try ServeProcess([a, b, "--best"], errorPath: folder + "/serve.err")
        defer { serve.stop() }
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"best:\"};")
        var reports: [Report] = []
        func last(_ count: Int, from source: String) -> ([Report]) -> Bool {
            { reports in reports.suffix(count).count == count && reports.suffix(count).allSatisfy { $0.source == source } }
        }
        try #require(Self.collect(client, into: &reports, until: last(3, from: b)), "\(serve.said)")
        /// Plugs a in: a `simulate --control` whose standard input is empty (its commands end at
        /// once: it goes on as a receiver).
        func plugInA() throws -> ChildProcess {
            let receiver = try ChildProcess(Command.executable.path, ["simulate", "--control", "--link", a])
            try #require(waitForChanges(to: a) { FileManager.default.fileExists(atPath: a) })
            return receiver
        }
        var receiverA = try plugInA()
        try #require(Self.collect(client, into: &reports, until: last(3, from: a)), "a plugged in: \(serve.said)")
        // Its link goes first, as udev takes a node away: a killed simulator leaves its link
        // behind, to a terminal number the next terminal opened (another test's) is given, and
        // serve, trying a again, would read that one.
        try? FileManager.default.removeItem(atPath: a)
        kill(receiverA.pid, SIGKILL)
        _ = receiverA.waitForExit()
        try #require(Self.collect(client, into: &reports, until: last(3, from: b)), "a killed: \(serve.said)")
        receiverA = try plugInA()
        defer {
            receiverA.terminate()
            _ = receiverA.waitForExit()
        }
        try #require(Self.collect(client, into: &reports, until: last(3, from: a)), "a again: \(serve.said)")
        let seconds = reports.map(\.second)
        let summary = reports.map { "\($0.second % 100):\($0.source == a ? "a" : $0.source == b ? "b" : "?")" }.joined(separator: " ")
        #expect(reports.allSatisfy { $0.device == "best:" })
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $1 == $0 + 1 }, "every second once, in order, no gap: \(summary)")
        #expect(serve.said.contains("went silent"), "\(serve.said)")
    }

    @Test("gpspipe -w and Python's gps module read best: unchanged: its TPVs, with their source")
    func gpsdClients() throws {
        let rig = try Rig()
        defer { rig.stop() }
        let out = rig.folder + "/gpspipe.out"
        let pipe = try ChildProcess("/usr/bin/gpspipe", ["-w", "-n", "12", "127.0.0.1:\(rig.port):best:"], outputPath: out)
        #expect(pipe.exits(within: 30))
        let lines = ServeProcess.text(out).split(separator: "\n")
        let tpvs = lines.filter { $0.contains("\"class\":\"TPV\"") }
        #expect(!tpvs.isEmpty && tpvs.allSatisfy { $0.contains("\"device\":\"best:\"") && $0.contains("\"source\":\"\(rig.folder)/") },
                "\(ServeProcess.text(out))")
        let script = """
            import gps, sys
            session = gps.gps(host="127.0.0.1", port=\(rig.port))
            session.stream(gps.WATCH_ENABLE | gps.WATCH_JSON | gps.WATCH_DEVICE, devpath="best:")
            seen = 0
            for report in session:
                if report["class"] == "TPV" and "lat" in report:
                    print("fix", report["device"], report["source"], session.fix.mode, session.fix.latitude)
                    seen += 1
                    if seen == 3:
                        sys.exit(0)
            """
        let result = rig.folder + "/python.out"
        let python = try ChildProcess("/usr/bin/python3", ["-c", script], outputPath: result, errorPath: rig.folder + "/python.err")
        #expect(python.exits(within: 30))
        let fixes = ServeProcess.text(result).split(separator: "\n").filter { $0.hasPrefix("fix best: \(rig.folder)/") && $0.contains(" 3 52.0") }
        #expect(fixes.count == 3, "\(ServeProcess.text(result)) \(ServeProcess.text(rig.folder + "/python.err"))")
    }
}
