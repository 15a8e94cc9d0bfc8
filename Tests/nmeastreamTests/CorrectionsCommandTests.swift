import Foundation
import Testing
import TestSupport

/// `--corrections` on the command line, against a real caster (RTKLIB's str2str) and a
/// receiver that is a pseudo-terminal whose other side the test reads.
@Suite("nmeastream --corrections", .mayBlock, .serialized, .enabled(if: RTKLIBCaster.isInstalled, "rtklib (str2str) is not installed"))
struct CorrectionsCommandTests {
    /// A folder for one test's files, removed after it.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-corrections-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("read: the frames reach the receiver byte for byte, the position goes upstream, what was written is summed up at the end")
    func read() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let terminal = try PseudoTerminal()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "pw\n".write(toFile: folder + "/password", atomically: false, encoding: .utf8)
        let read = try ChildProcess(Command.executable.path, [
            "read", terminal.devicePath, "--speed", "9600", "--count", "3", "--format", "json",
            "--corrections", "ntrip://me@127.0.0.1:\(caster.port)/MOUNT", "--corrections-password-file", folder + "/password",
            "--gga-interval", "0.5",
        ], outputPath: folder + "/out", errorPath: folder + "/err")
        defer { if read.isRunning { read.terminate() } }
        try #require(waitForChanges(to: folder) { Self.text(folder + "/err").contains("corrections: streaming from ntrip://me@127.0.0.1:\(caster.port)/MOUNT") },
                     "\(Self.text(folder + "/err"))")
        try #require(terminal.waitUntilConfigured())
        let frames = (0..<40).map(RTCM3TestFrames.numbered)
        let difference = RTCM3TestFrames.relay(frames, through: input, to: terminal)
        #expect(difference == nil, "\(difference ?? "")")
        // An epoch is complete when the next one begins.
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1))
        let position = input.readLine(containing: "GGA", seconds: 10)
        #expect(position?.hasPrefix("$GPGGA,") == true, "\(position ?? "")")
        for second in 2...5 { terminal.write(SyntheticEpochs.epoch(second)) }
        #expect(read.waitForExit() == 0, "\(Self.text(folder + "/err"))")
        let said = Self.text(folder + "/err")
        #expect(said.contains("corrections: written to \(terminal.devicePath)\n"), "\(said)")
        let bytes = frames.joined().count
        #expect(said.contains("corrections: 40 frames, \(bytes) bytes written (1001: 1, "), "\(said)")
        #expect(Self.text(folder + "/out").split(separator: "\n").count { $0.contains("\"class\":\"TPV\"") } == 3)
    }

    @Test("a wrong password, an unknown mountpoint: one clear line each, however often the caster is tried")
    func refused() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let terminal = try PseudoTerminal()
        let wrong = try Command.run(["read", terminal.devicePath, "--speed", "9600", "--timeout", "2.5",
                                     "--corrections", "ntrip://me:nope@127.0.0.1:\(caster.port)/MOUNT", "--corrections-ntrip-version", "1"])
        #expect(wrong.status == 75)
        let refusals = wrong.error.split(separator: "\n").filter { $0.contains("corrections:") }
        #expect(refusals == ["nmeastream: corrections: refused: the caster refused the password of me"], "\(wrong.error)")
        let unknown = try Command.run(["read", terminal.devicePath, "--speed", "9600", "--timeout", "2.5",
                                       "--corrections", "ntrip://me:pw@127.0.0.1:\(caster.port)/NOPE"])
        let said = unknown.error.split(separator: "\n").filter { $0.contains("corrections:") }
        #expect(said == ["nmeastream: corrections: refused: the caster has no mountpoint NOPE; it has MOUNT"], "\(unknown.error)")
        let noMount = try Command.run(["read", terminal.devicePath, "--corrections", "ntrip://127.0.0.1:\(caster.port)/"])
        #expect(noMount.status == 64)
        #expect(noMount.error.contains("names no mountpoint"), "\(noMount.error)")
    }

    @Test("serve: no watcher, nothing written and no caster connection; a watcher, the frames; the last one gone, nothing more")
    func serveWritesOnlyWhileWatched() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let terminal = try PseudoTerminal()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let serve = try ChildProcess(Command.executable.path, [
            "serve", terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0",
            "--corrections", "ntrip://me:pw@127.0.0.1:\(caster.port)/MOUNT", "--gga-interval", "0", "--verbose",
        ], errorPath: folder + "/err")
        defer { if serve.isRunning { serve.terminate() } }
        try #require(waitForChanges(to: folder) { Self.text(folder + "/err").contains(" on 127.0.0.1:") })
        let port = try #require(Self.text(folder + "/err").split(separator: "\n").first.flatMap { Int($0.split(separator: ":").last ?? "") })
        for index in 0..<10 { input.send(bytes: RTCM3TestFrames.numbered(index)) }
        #expect(terminal.read(upTo: 1, seconds: 1).isEmpty)
        #expect(!Self.text(folder + "/err").contains("corrections: streaming"))

        let client = try LineClient(port: port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"") != nil)
        try #require(terminal.waitUntilConfigured())
        try #require(waitForChanges(to: folder) { Self.text(folder + "/err").contains("corrections: streaming from") }, "\(Self.text(folder + "/err"))")
        let difference = RTCM3TestFrames.relay((10..<60).map(RTCM3TestFrames.numbered), through: input, to: terminal)
        #expect(difference == nil, "\(difference ?? "")")

        client.send("?WATCH={\"enable\":false};")
        try #require(waitForChanges(to: folder) { Self.text(folder + "/err").contains("\(terminal.devicePath): closed, its last watcher gone") },
                     "\(Self.text(folder + "/err"))")
        for index in 60..<70 { input.send(bytes: RTCM3TestFrames.numbered(index)) }
        #expect(terminal.read(upTo: 1, seconds: 1).isEmpty)
        kill(serve.pid, SIGINT)
        #expect(serve.waitForExit() == 0)
        #expect(Self.text(folder + "/err").contains("corrections: 50 frames"), "\(Self.text(folder + "/err"))")
    }

    @Test("serve with a simulate receiver (--record-input): what the receiver is written is exactly the caster's frames, in order")
    func simulateReceiver() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = folder + "/gps0", recorded = folder + "/written.bin"
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device, "--record-input", recorded])
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        try #require(waitForChanges(to: device) { FileManager.default.fileExists(atPath: device) })
        let serve = try ServeProcess([device, "--corrections", "ntrip://me:pw@127.0.0.1:\(caster.port)/MOUNT"], errorPath: folder + "/err")
        defer { serve.stop() }
        let client = try LineClient(port: serve.port)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        // The simulator's track reaches the client once the device is open and its speed found.
        #expect(client.readLine(containing: "\"class\":\"TPV\"", seconds: 15) != nil)
        try #require(waitForChanges(to: folder) { Self.text(folder + "/err").contains("corrections: streaming from") }, "\(Self.text(folder + "/err"))")
        let frames = (0..<100).map(RTCM3TestFrames.numbered)
        for (index, frame) in frames.enumerated() {
            input.send(bytes: frame)
            if index % 5 == 4 { usleep(10_000) }
        }
        let expected = frames.flatMap { $0 }
        #expect(waitForChanges(to: recorded) { (try? Data(contentsOf: URL(fileURLWithPath: recorded)).count) == expected.count }, "\(Self.text(folder + "/err"))")
        usleep(300_000)
        #expect(Array((try? Data(contentsOf: URL(fileURLWithPath: recorded))) ?? Data()) == expected)
    }

    @Test("simulate --record-input on a full disk (/dev/full): said once, the receiver goes on being one, and a writer never finds its line full")
    func recordInputDiskFull() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = folder + "/gps0"
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device, "--record-input", "/dev/full"],
                                         errorPath: folder + "/err")
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        try #require(waitForChanges(to: device) { FileManager.default.fileExists(atPath: device) })
        let writer = open(device, O_WRONLY | O_NOCTTY | O_NONBLOCK)
        try #require(writer >= 0)
        defer { close(writer) }
        // Far more than a terminal's buffers (some 64 KB): taken all the same, or the line
        // would be full.
        let written = writeBytes([UInt8](repeating: 0xD3, count: 256 * 1024), to: writer, seconds: 8)
        #expect(written >= 256 * 1024, "\(written) bytes taken")
        #expect(waitForChanges(to: folder) { Self.text(folder + "/err").contains("--record-input: cannot write /dev/full") })
        usleep(200_000)
        #expect(Self.text(folder + "/err").components(separatedBy: "cannot write").count == 2, "once: \(Self.text(folder + "/err"))")
        #expect(simulator.isRunning)
    }
}
