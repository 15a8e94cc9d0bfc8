#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// What the commands do when their output cannot be written, or their terminal goes: an
/// error and a documented exit code, never a silent 0; a GPX document closed on a signal.
@Suite("output faults", .mayBlock, .serialized)
struct OutputFaultTests {
    static let log = Command.fixture("ublox-multi.nmea")

    /// Runs the command with its standard output to `path`; its status and what it said.
    func run(_ arguments: [String], outputPath: String) throws -> (Int32, String) {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let process = try ChildProcess(Command.executable.path, arguments, outputPath: outputPath, errorPath: errors)
        var status: Int32 = -1
        #expect(process.exits(within: 30))
        if process.isRunning { process.terminate() }
        status = process.waitForExit()
        return (status, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }

    @Test("output to /dev/full: replay, paced replay, read of a log and demo end with the reason and exit 74",
          arguments: [["replay", "--format", "json", log], ["replay", "--format", "gpx", log], ["replay", "--speed", "50", log],
                      ["replay", "--format", "nmea", "--speed", "50", log], ["demo", "--count", "2", "--speed", "10"]])
    func devFull(_ arguments: [String]) throws {
        let (status, said) = try run(arguments, outputPath: "/dev/full")
        #expect(status == 74, "\(arguments): \(said)")
        #expect(said.contains("cannot write the output: No space left on device"), "\(arguments): \(said)")
        if arguments.contains("gpx") { #expect(said.contains("GPX document is incomplete")) }
    }

    @Test("a GPX on a filesystem that fills up: exit 74 and 'incomplete', never a silent 0",
          .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func fullDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard spawnAndWait("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", folder]) == 0 else {
            print("cannot mount a tmpfs here: skipped")
            return
        }
        defer { _ = spawnAndWait("/bin/umount", [folder]) }
        // The fixture forty times over: a track far larger than the 16 kB filesystem.
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-long-\(UUID().uuidString).nmea").path
        defer { try? FileManager.default.removeItem(atPath: input) }
        let fixture = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        try Data((0..<40).flatMap { _ in fixture }).write(to: URL(fileURLWithPath: input))
        let (status, said) = try run(["replay", "--format", "gpx", input], outputPath: folder + "/track.gpx")
        #expect(status != 0, "the track should not fit in 16 kB")
        if status == 0 {
            // The whole document fitted: then it is complete.
            #expect(spawnAndWait("/usr/bin/gpsbabel", ["-i", "gpx", "-f", folder + "/track.gpx", "-o", "csv", "-F", "/dev/null"]) == 0)
        } else {
            #expect(status == 74 && said.contains("No space left on device") && said.contains("incomplete"), "\(status): \(said)")
        }
    }

    @Test("SIGHUP (the terminal hung up) during a paced replay to GPX: the document is closed and valid, exit 0")
    func hangUpClosesGPX() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-hup-\(UUID().uuidString).gpx").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try ChildProcess(Command.executable.path, ["replay", "--format", "gpx", "--speed", "1", Self.log], outputPath: path)
        #expect(waitForChanges(to: path, seconds: 20) { ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains("<trkpt") })
        kill(process.pid, SIGHUP)
        #expect(process.exits(within: 10))
        #expect(process.waitForExit() == 0)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(text.hasSuffix("</gpx>\n"), "\(text.suffix(80))")
        #expect(spawnAndWait("/usr/bin/gpsbabel", ["-i", "gpx", "-f", path, "-o", "csv", "-F", "/dev/null"]) == 0)
    }

    @Test("SIGHUP during a fast replay to GPX: it stops where it is, the document closed")
    func hangUpFastReplay() throws {
        // A long log: the fixture many times, on a pipe that the test fills slowly.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-hup-\(UUID().uuidString).gpx").path
        let fifo = path + ".fifo"
        defer { try? FileManager.default.removeItem(atPath: path); unlink(fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = try ChildProcess(Command.executable.path, ["replay", "--format", "gpx", fifo], outputPath: path)
        let writer = open(fifo, O_WRONLY)
        defer { close(writer) }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.log)))
        _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        // Once it has read what was written (the pipe is empty), its signal handling is in
        // place: it is set up before the first read.
        #expect(eventually(seconds: 20) {
            var waiting: Int32 = 0
            return ioctl(writer, UInt(FIONREAD), &waiting) == 0 && waiting == 0
        })
        kill(process.pid, SIGHUP)
        // The replay waits for more of its input: more wakes it, until it has stopped (a write
        // after its end fails with EPIPE, not the signal).
        signal(SIGPIPE, SIG_IGN)
        #expect(eventually(seconds: 10) {
            _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
            usleep(20_000)
            return !process.isRunning
        })
        #expect(process.waitForExit() == 0)
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(text.hasSuffix("</gpx>\n"))
    }
}
