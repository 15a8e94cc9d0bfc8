import Foundation
import Testing
import TestSupport

/// `serve` checks every receiver live: a `simulate --control --multi-gnss` receiver made to
/// jump, step its time (against the system clock), send uniform signals and lose them; the
/// first report that shows each fault carries its flag, the server says it, and libgps
/// (gpxlogger) reads the flagged reports as any other.
@Suite("serve integrity checks", .mayBlock, .serialized)
struct ServeIntegrityTests {
    struct Epoch {
        var second: Double
        var latitude: Double
        var densities: [Double]
        var integrity: [String]
    }

    @Test("Each made fault is flagged on the first report that shows it; libgps reads the flagged reports")
    func liveFaults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-integrity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/control", 0o600)
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--control", "--multi-gnss", "--link", folder + "/gps"],
                                         inputPath: folder + "/control", errorPath: folder + "/simulate.err")
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        let control = try #require(FileHandle(forWritingAtPath: folder + "/control"))
        defer { try? control.close() }
        try #require(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/gps") })
        let serve = try ServeProcess([folder + "/gps"], errorPath: folder + "/serve.err")
        defer { serve.stop() }
        let port = serve.port
        let client = try LineClient(port: port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        var epochs: [Epoch] = []
        var densities: [Double] = []
        /// Reads reports until `done` holds for the epochs read (or 15 s pass).
        func read(until done: ([Epoch]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                guard let line = client.readLine(seconds: 5),
                      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if object["class"] as? String == "SKY", let satellites = object["satellites"] as? [[String: Any]] {
                    densities = satellites.compactMap { $0["ss"] as? Double }
                }
                guard object["class"] as? String == "TPV", let latitude = object["lat"] as? Double,
                      let time = (object["time"] as? String).flatMap(ServeProcess.seconds(ofReportTime:)) else { continue }
                epochs.append(Epoch(second: time, latitude: latitude, densities: densities,
                                    integrity: object["integrity"] as? [String] ?? []))
                if done(epochs) { return true }
            }
            return false
        }
        try #require(read { $0.count >= 3 })
        // Once the device is open: gpxlogger gives up when no report comes for a while.
        let logger = try ChildProcess("/usr/bin/gpxlogger", ["-e", "sockets", "-r", "-f", folder + "/track.gpx", "127.0.0.1:\(port)"],
                                      errorPath: folder + "/gpxlogger.err")
        defer {
            logger.terminate()
            _ = logger.waitForExit()
        }
        #expect(epochs.allSatisfy { $0.integrity.isEmpty }, "a clean start")
        /// Injects `command`, reads on until an epoch shows it (`shows`: this epoch and the one
        /// before), and returns that first epoch.
        func inject(_ command: String, shows: @escaping (Epoch, Epoch) -> Bool) throws -> Epoch {
            control.write(Data((command + "\n").utf8))
            let count = epochs.count
            try #require(read { epochs in epochs.count > count && zip(epochs.dropLast(), epochs.dropFirst()).dropFirst(count - 1).contains { shows($0, $1) } },
                         "\(command): \(serve.said)")
            return zip(epochs.dropLast(), epochs.dropFirst()).dropFirst(count - 1).first { shows($0, $1) }!.1
        }
        let jumped = try inject("shift 2000") { before, now in (now.latitude - before.latitude).magnitude > 0.01 }
        #expect(jumped.integrity.contains("position-jump"), "\(jumped)")
        let stepped = try inject("time-shift 30") { before, now in now.second - before.second > 10 }
        #expect(stepped.integrity.contains("time-step"), "\(stepped)")
        let uniform = try inject("signals uniform") { _, now in now.densities.count >= 8 && now.densities.allSatisfy { $0 == 45 } }
        #expect(uniform.integrity.contains("uniform-cn0"), "\(uniform)")
        let jammed = try inject("signals jammed") { _, now in !now.densities.isEmpty && now.densities.allSatisfy { $0 == 12 } }
        #expect(jammed.integrity.contains("signal-loss"), "\(jammed)")
        _ = try inject("normal") { _, now in now.densities.contains { $0 != 12 } }
        let said = serve.said
        for kind in ["position-jump", "time-step", "uniform-cn0", "signal-loss"] {
            #expect(said.contains("integrity: \(kind) on \(folder)/gps"), "\(said)")
        }
        // libgps (gpxlogger) read the flagged reports as any other: the jump's among its points
        // (written out when it stops).
        logger.terminate()
        _ = logger.waitForExit()
        let formatter = ISO8601DateFormatter()
        let jumpTime = formatter.string(from: Date(timeIntervalSince1970: jumped.second.rounded()))
        #expect(ServeProcess.text(folder + "/track.gpx").contains(jumpTime.replacingOccurrences(of: "Z", with: "")),
                "\(jumpTime) in \(ServeProcess.text(folder + "/track.gpx").suffix(600)) \(ServeProcess.text(folder + "/gpxlogger.err"))")
    }

    /// serve writes its messages to a pipe no one reads any more: each write fails with EPIPE
    /// and must not raise SIGPIPE (SwiftNIO ignores it for the whole process, which serve relies
    /// on; with SIGPIPE's default restored this test fails at the first jump).
    @Test("Its standard error gone (a pipe whose reader closed): serve goes on serving through the integrity events it can no longer say")
    func errorOutputClosed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-integrity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/control", 0o600)
        mkfifo(folder + "/serve.err", 0o600)
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--control", "--link", folder + "/gps"],
                                         inputPath: folder + "/control")
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        let control = try #require(FileHandle(forWritingAtPath: folder + "/control"))
        defer { try? control.close() }
        try #require(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/gps") })
        // The reading end first, so that serve's opening of its standard error does not wait.
        let reader = open(folder + "/serve.err", O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        let serve = try ChildProcess(Command.executable.path, ["serve", folder + "/gps", "--listen", "127.0.0.1:0"],
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
        let port = try #require(said.split(separator: "\n").first.flatMap { Int($0.split(separator: ":").last ?? "") })
        close(reader)
        let client = try LineClient(port: port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        #expect(client.readLine(containing: "\"class\":\"TPV\"", seconds: 15) != nil)
        // Each jump is an event serve would say.
        for shift in ["shift 2000", "shift 0", "shift 3000"] {
            control.write(Data((shift + "\n").utf8))
            #expect(client.readLine(containing: "position-jump", seconds: 10) != nil, "\(shift)")
        }
        #expect(client.readLine(containing: "\"class\":\"TPV\"", seconds: 5) != nil, "still serving")
        #expect(serve.isRunning)
    }

    @Test("serve --no-integrity: a jump goes out unflagged and unsaid")
    func checksOff() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-integrity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/control", 0o600)
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--control", "--link", folder + "/gps"],
                                         inputPath: folder + "/control")
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        let control = try #require(FileHandle(forWritingAtPath: folder + "/control"))
        defer { try? control.close() }
        try #require(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/gps") })
        let serve = try ServeProcess([folder + "/gps", "--no-integrity"], errorPath: folder + "/serve.err")
        defer { serve.stop() }
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        let first = try #require(client.readLine(containing: "\"class\":\"TPV\"", seconds: 15))
        let latitude = { (line: String) -> Double? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["lat"] as? Double
        }
        let before = try #require(latitude(first))
        control.write(Data("shift 2000\n".utf8))
        var jumped: String?
        let deadline = Date().addingTimeInterval(10)
        while jumped == nil, Date() < deadline, let line = client.readLine(containing: "\"class\":\"TPV\"", seconds: 5) {
            if let now = latitude(line), (now - before).magnitude > 0.01 { jumped = line }
        }
        let line = try #require(jumped, "the jump came")
        #expect(!line.contains("\"integrity\""), "\(line)")
        #expect(!serve.said.contains("integrity:"), "\(serve.said)")
    }
}
