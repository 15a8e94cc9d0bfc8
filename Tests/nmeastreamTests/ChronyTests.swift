#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve --chrony` with a real chronyd (Debian `chrony`): its own configuration, socket
/// folder and log, no control of the clock (`-x`).
@Suite("Time service with chrony", .mayBlock, .serialized)
struct ChronyTests {
    static let chronyd = "/usr/sbin/chronyd"

    /// One raw sample from chronyd's refclocks log: when chronyd logged it, and its offset.
    struct LoggedSample {
        var line: String
        var offset: Double
    }

    /// The raw samples of refid `NMEA` in the refclocks log (not the filtered results, whose
    /// sample columns are `-`).
    static func samples(in folder: String) -> [LoggedSample] {
        let log = (try? String(contentsOfFile: folder + "/refclocks.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 9, columns[2] == "NMEA", columns[3] != "-", let offset = Double(columns[6]) else { return nil }
            return LoggedSample(line: String(line), offset: offset)
        }
    }

    /// Writes `folder`/chrony.conf: chronyd as root, everything of its own in `folder`, the
    /// raw samples logged, one `refclock` line.
    static func configure(_ folder: String, refclock: String) throws {
        try """
            user root
            refclock \(refclock)
            pidfile \(folder)/chronyd.pid
            logdir \(folder)
            log refclocks
            cmdport 0
            bindcmdaddress \(folder)/chronyc.sock
            driftfile \(folder)/drift

            """.write(toFile: folder + "/chrony.conf", atomically: true, encoding: .utf8)
    }

    static func startChronyd(_ folder: String) throws -> ChildProcess {
        try ChildProcess(chronyd, ["-x", "-d", "-f", folder + "/chrony.conf"], outputPath: folder + "/chronyd.out", errorPath: folder + "/chronyd.err")
    }

    @Test("serve --chrony on a simulate pty: chronyd gets one NMEA sample a second, with the offset the simulator's pacing implies; after chronyd restarts, samples resume",
          .enabled(if: FileManager.default.isExecutableFile(atPath: chronyd), "chrony is not installed"))
    func samplesToChronyd() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-chrony-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // chronyd makes the socket; nmeastream sends to it, named after the device.
        try Self.configure(folder, refclock: "SOCK \(folder)/chrony.clk.gps0.sock refid NMEA poll 2")
        var chronyd = try Self.startChronyd(folder)
        defer {
            chronyd.terminate()
            _ = chronyd.waitForExit()
        }
        #expect(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/chrony.clk.gps0.sock") }, "chronyd made its socket")

        // The simulator labels each epoch with the second it sends it in, a tenth of a second
        // into it: the offset is minus that tenth and the time the bytes take to reach chronyd.
        let device = folder + "/gps0"
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device])
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        #expect(waitForChanges(to: device) { FileManager.default.fileExists(atPath: device) })
        let serve = try ChildProcess(Command.executable.path, ["serve", device, "--chrony", "--chrony-dir", folder, "--listen", "127.0.0.1:0", "--verbose"],
                                     errorPath: folder + "/serve.err")
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }

        #expect(waitForChanges(to: folder, seconds: 20) { Self.samples(in: folder).count >= 5 }, "chronyd logged samples")
        let samples = Self.samples(in: folder)
        let offsets = samples.map(\.offset)
        let spread = (offsets.max() ?? 0) - (offsets.min() ?? 0)
        #expect(offsets.allSatisfy { $0 < 0 && $0 > -1 }, "\(samples.map(\.line))")
        // One pacing, one offset: the samples' spread is the jitter of the simulator's writes and
        // of the reads (0.053 s once, on a machine loaded by other tests), far below a second.
        #expect(spread < 0.2, "one pacing, one offset: \(offsets)")
        // The sending delay: a tenth of a second, and a few milliseconds for the bytes to be
        // read and handed on (the median: the first epoch, written before serve opened the
        // device, may arrive later).
        let median = offsets.sorted()[offsets.count / 2]
        #expect(median < -0.1 && median > -0.15, "offset \(median): \(offsets)")

        // chronyd restarts (its socket goes and comes back): samples resume. serve says so when
        // the samples stop reaching it, once, and (--verbose) when they reach it again.
        let said = { (try? String(contentsOfFile: folder + "/serve.err", encoding: .utf8)) ?? "" }
        let socket = folder + "/chrony.clk.gps0.sock"
        #expect(said().components(separatedBy: "samples reach \(socket)").count == 2, "\(said())")
        chronyd.terminate()
        #expect(chronyd.waitForExit() == 0)
        #expect(waitForChanges(to: folder, seconds: 10) { said().contains("chrony \(device): no chronyd socket at \(socket): start chronyd first") },
                "said while serving: \(said())")
        let countBefore = Self.samples(in: folder).count
        chronyd = try Self.startChronyd(folder)
        #expect(waitForChanges(to: folder, seconds: 20) { Self.samples(in: folder).count >= countBefore + 3 }, "samples after the restart")
        let errors = said()
        #expect(!errors.contains("cannot"), "\(errors)")
        #expect(errors.components(separatedBy: "no chronyd socket").count == 2, "said once, not per sample: \(errors)")
        #expect(errors.components(separatedBy: "samples reach \(socket)").count == 3, "\(errors)")
    }

    @Test("serve --chrony with chronyd down at start and a PPS device missing: each said once as it happens; when chronyd comes, samples reach it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: chronyd), "chrony is not installed"))
    func chronydDownAtStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-chrony-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.configure(folder, refclock: "SOCK \(folder)/chrony.clk.gps0.sock refid NMEA poll 2")
        let device = folder + "/gps0"
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device])
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        #expect(waitForChanges(to: device) { FileManager.default.fileExists(atPath: device) })
        let pps = "/dev/pps-nmeastream-missing"
        let serve = try ChildProcess(Command.executable.path, ["serve", device, "--chrony", "--chrony-dir", folder, "--pps", pps,
                                                               "--listen", "127.0.0.1:0", "--verbose"], errorPath: folder + "/serve.err")
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }
        let said = { (try? String(contentsOfFile: folder + "/serve.err", encoding: .utf8)) ?? "" }
        let socket = folder + "/chrony.clk.gps0.sock"
        #expect(waitForChanges(to: folder, seconds: 10) { said().contains("chrony \(device): no chronyd socket at \(socket): start chronyd first") }, "\(said())")
        #expect(waitForChanges(to: folder, seconds: 10) { said().contains("chrony \(device): the PPS device \(pps) cannot be opened") }, "\(said())")
        usleep(3_000_000)
        #expect(said().components(separatedBy: "no chronyd socket").count == 2, "said once, not per sample: \(said())")
        #expect(said().components(separatedBy: "cannot be opened").count == 2, "said once: \(said())")
        #expect(serve.isRunning)

        let chronyd = try Self.startChronyd(folder)
        defer {
            chronyd.terminate()
            _ = chronyd.waitForExit()
        }
        #expect(waitForChanges(to: folder, seconds: 20) { said().contains("samples reach \(socket)") }, "\(said())")
        #expect(waitForChanges(to: folder, seconds: 20) { Self.samples(in: folder).count >= 2 }, "chronyd logged samples")
    }
}
