#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve --ntp-shm` with real readers: gpsd's `ntpshmmon` (which reads the segments exactly
/// as ntpd does) and chronyd (`refclock SHM`, `-x`: no control of the clock). A unit of its
/// own (`--ntp-shm-unit`), so that the machine's time service is left alone.
@Suite("nmeastream serve --ntp-shm", .mayBlock, .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ntpshmmon") && FileManager.default.isExecutableFile(atPath: ChronyTests.chronyd),
                "gpsd-clients (ntpshmmon) or chrony is not installed"))
struct NTPSHMCommandTests {
    /// One sample as `ntpshmmon -o` prints it: `sample NTPn OFFSET CLOCK REAL LEAP PRECISION`,
    /// where its offset is the system time minus the real time (how late the sample is).
    struct MonitoredSample {
        var unit: String
        var offset: Double
        var real: Double
        var leap: Int
        var precision: Int
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    static func monitor(seconds: Int) throws -> [MonitoredSample] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ntpshmmon-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let monitor = try ChildProcess("/usr/bin/ntpshmmon", ["-o", "-t", "\(seconds)"], outputPath: folder)
        _ = monitor.waitForExit()
        let output = (try? String(contentsOfFile: folder, encoding: .utf8)) ?? ""
        return output.split(separator: "\n").compactMap { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 7, columns[0] == "sample", let offset = Double(columns[2]), let real = Double(columns[4]),
                  let leap = Int(columns[5]), let precision = Int(columns[6]) else { return nil }
            return MonitoredSample(unit: String(columns[1]), offset: offset, real: real, leap: leap, precision: precision)
        }
    }

    @Test("ntpshmmon and chronyd read one sample a second, each whole second arriving under a second late; restarting either does not disturb serve")
    func readers() throws {
        // ntpshmmon reads units 0 to 11 (gpsd's), and names 10 and 11 oddly (`NTP:`, `NTP;`): 8 and 9,
        // a fifth receiver's, which no machine that runs these tests has.
        let unit = 8
        // One test process at a time on the unit, whoever runs it (two test runs on one machine).
        let lock = open(FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-ntp-shm-\(unit).lock").path,
                        O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        defer { close(lock) }
        flock(lock, LOCK_EX)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-ntpshm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ChronyTests.configure(folder, refclock: "SHM \(unit) refid NMEA poll 2")
        let device = folder + "/gps0"
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device])
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        #expect(waitForChanges(to: device) { FileManager.default.fileExists(atPath: device) })
        let serve = try ChildProcess(Command.executable.path, ["serve", device, "--ntp-shm", "--ntp-shm-unit", "\(unit)", "--listen", "127.0.0.1:0"],
                                     errorPath: folder + "/serve.err")
        defer {
            if serve.isRunning { serve.terminate() }
            _ = serve.waitForExit()
        }
        let said = { (try? String(contentsOfFile: folder + "/serve.err", encoding: .utf8)) ?? "" }
        #expect(waitForChanges(to: folder) { said().contains("ntp-shm \(device): serial time in NTP\(unit)") }, "\(said())")

        // ntpshmmon: the samples of our unit, a second apart, each a whole second of real time
        // that arrived under a second after it (the system time is later); precision -1 (a
        // report's time), no leap.
        let monitored = try Self.monitor(seconds: 7).filter { $0.unit == "NTP\(unit)" }
        #expect(monitored.count >= 3, "\(monitored)")
        #expect(monitored.allSatisfy { $0.offset > 0 && $0.offset < 1 && $0.precision == -1 && $0.leap == 0 }, "\(monitored)")
        #expect(monitored.allSatisfy { $0.real == $0.real.rounded() }, "whole seconds: \(monitored.map(\.real))")
        let spacing = zip(monitored.dropFirst(), monitored).map { $0.real - $1.real }
        #expect(spacing.allSatisfy { $0 == 1 }, "a second apart: \(spacing)")

        // chronyd: its refclocks log shows the same samples; killed and started again, it reads
        // on, and serve, which never noticed, with it.
        var chronyd = try ChronyTests.startChronyd(folder)
        #expect(waitForChanges(to: folder, seconds: 20) { ChronyTests.samples(in: folder).count >= 3 },
                "chronyd logged samples: \(Self.text(folder + "/chronyd.err")) \(said())")
        #expect(ChronyTests.samples(in: folder).allSatisfy { $0.offset < 0 && $0.offset > -1 }, "\(ChronyTests.samples(in: folder).map(\.line))")
        kill(chronyd.pid, SIGKILL)
        _ = chronyd.waitForExit()
        let before = ChronyTests.samples(in: folder).count
        chronyd = try ChronyTests.startChronyd(folder)
        #expect(waitForChanges(to: folder, seconds: 20) { ChronyTests.samples(in: folder).count >= before + 2 }, "chronyd read on after its restart")
        // chronyd gone (it clears each sample's valid flag as it takes it, so a monitor beside
        // it sees only those it reads first): ntpshmmon, run again, reads every sample again.
        chronyd.terminate()
        _ = chronyd.waitForExit()
        #expect(try Self.monitor(seconds: 4).filter { $0.unit == "NTP\(unit)" }.count >= 2, "ntpshmmon run again reads on")
        #expect(serve.isRunning)

        kill(serve.pid, SIGINT)
        #expect(serve.waitForExit() == 0)
        let written = said().split(separator: "\n").first { $0.contains("samples written to NTP\(unit)") }
        #expect(written != nil, "\(said())")
        // Given back: nobody else's unit, and gone with nobody attached.
        let id = shmget(key_t(0x4e54_5030 + unit), 0, 0)
        if id >= 0 { shmctl(id, IPC_RMID, nil) }
    }
}
