#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

@Suite("nmeastream read", .mayBlock)
struct ReadCommandTests {
    @Test("reads a receiver on a serial device and stops after --count fixes, settings restored")
    func readsDevice() throws {
        let terminal = try PseudoTerminal()
        let log = try Data(contentsOf: URL(fileURLWithPath: Command.fixture("ublox-multi.nmea")))
        let result = try Command.run(["read", "--format", "json", "--count", "3", terminal.devicePath]) {
            #expect(eventuallyOpen(terminal.devicePath))
            terminal.write(Array(log))
        }
        #expect(result.status == 0, "\(result.error)")
        let tpv = result.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(tpv.count == 3)
        #expect(tpv.first?.contains("\"time\":\"2024-06-05T12:30:00.000Z\"") == true)
        // The device's settings are back as they were: a new pseudo-terminal's are canonical
        // with echo (the master side reads the device side's settings).
        var settings = termios()
        #expect(tcgetattr(terminal.master, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0)
    }

    @Test("a device the user may not open: permission denied, naming its group and the fixes")
    func permissionDenied() throws {
        // The tests run as root; the command runs as nobody, with no supplementary group.
        try #require(getuid() == 0, "needs root to run the command as another user")
        let terminal = try PseudoTerminal()
        var status = stat()
        #expect(stat(terminal.devicePath, &status) == 0)
        let group = String(cString: getgrgid(status.st_gid).pointee.gr_name)
        let result = try Command.run(["read", terminal.devicePath],
                                     launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(result.status == 69, "\(result.error)")
        #expect(result.error.contains("permission denied"))
        #expect(result.error.contains("usermod -aG \(group)"))
        #expect(result.error.contains("udev-rules/"))
    }

    @Test("a device another process holds: busy, naming that process")
    func busy() throws {
        let terminal = try PseudoTerminal()
        // A shell takes the lock on a descriptor and becomes `sleep`, which keeps it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 9<\"$0\" && /usr/bin/flock --nonblock 9 && exec /bin/sleep 30", terminal.devicePath]
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        #expect(eventuallyHeld(terminal.devicePath))
        let result = try Command.run(["read", terminal.devicePath])
        #expect(result.status == 69)
        #expect(result.error.contains("busy"), "\(result.error)")
        #expect(result.error.contains("sleep"), "\(result.error)")
    }

    @Test("--timeout: a port that sent nothing by then is exit 75, saying so (not blaming the antenna); the device is put back")
    func timeout() throws {
        let terminal = try PseudoTerminal()
        let start = Date()
        let result = try Command.run(["read", "--timeout", "0.5", "--min-mode", "3d", terminal.devicePath])
        #expect(result.status == 75)
        #expect(result.error.contains("no bytes from \(terminal.devicePath) in 0.5 s"), "\(result.error)")
        #expect(!result.error.contains("antenna"), "\(result.error)")
        #expect(Date().timeIntervalSince(start) < 5)
        var settings = termios()
        #expect(tcgetattr(terminal.master, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0, "settings restored")
    }

    @Test("--timeout: bytes with no NMEA in them, and NMEA with no fix, each said for what it is", arguments: [false, true])
    func timeoutWithBytes(nmea: Bool) throws {
        let terminal = try PseudoTerminal()
        let noFix = "$GPRMC,120000.00,V,,,,,,,050624,,,N*7B\r\n"
        let bytes = Array((nmea ? noFix : "\u{1}\u{2} binary, not NMEA \u{3}\r\n").utf8)
        let result = try Command.run(["read", "--timeout", "1.5", "--speed", "9600", terminal.devicePath]) {
            #expect(terminal.waitUntilConfigured())
            for _ in 0..<5 {
                terminal.write(bytes)
                usleep(100_000)
            }
        }
        #expect(result.status == 75)
        if nmea {
            #expect(result.error.contains("no fix after 1.5 s; check the antenna"), "\(result.error)")
        } else {
            #expect(result.error.contains("from \(terminal.devicePath) in 1.5 s but no NMEA 0183 sentence among them"), "\(result.error)")
            #expect(!result.error.contains("antenna"), "\(result.error)")
        }
    }

    @Test("--stats: counts and the fix rate on standard error at the end; no latency from a recording's times")
    func stats() throws {
        let result = try Command.run(["demo", "--count", "2", "--speed", "5", "--stats"])
        #expect(result.status == 0)
        for line in ["sentences ", "fixes 2", "rejects 0", "fix-rate "] {
            #expect(result.error.contains("\n" + line) || result.error.hasPrefix(line), "\(line) in \(result.error)")
        }
        // No row per reason that never happened.
        #expect(!result.error.contains("reject bad-checksum"), "\(result.error)")

        // A recording played into a port (2014's times): not a delay to report, and said why.
        let terminal = try PseudoTerminal()
        let recorded = try Command.run(["read", terminal.devicePath, "--speed", "9600", "--count", "3", "--stats"]) {
            #expect(terminal.waitUntilConfigured())
            terminal.write(Array(try Data(contentsOf: URL(fileURLWithPath: Command.fixture("sirf-cycle.nmea")))))
        }
        #expect(recorded.status == 0, "\(recorded.error)")
        #expect(recorded.error.contains("latency not measured: the receiver's time is "), "\(recorded.error)")
    }

    @Test("--count 1 --stats counts what was read up to the fix it printed, not what came before the reader stopped")
    func statsStopAtCount() throws {
        let log = try Data(contentsOf: URL(fileURLWithPath: Command.fixture("sirf-cycle.nmea")))
        let total = String(decoding: log, as: UTF8.self).split(whereSeparator: \.isNewline).count { $0.hasPrefix("$") }
        let terminal = try PseudoTerminal()
        let result = try Command.run(["read", terminal.devicePath, "--speed", "9600", "--count", "1", "--format", "json", "--stats"]) {
            #expect(terminal.waitUntilConfigured())
            // The whole log at once: every later epoch reaches the reader before it stops.
            terminal.write(Array(log))
        }
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.split(separator: "\n").count { $0.contains("\"class\":\"TPV\"") } == 1, "\(result.output)")
        #expect(result.error.contains("\nfixes 1\n"), "\(result.error)")
        let sentences = try #require(result.error.firstMatch(of: /\nsentences (\d+)\n/).flatMap { Int($0.1) }, "\(result.error)")
        #expect(sentences > 1 && sentences < total / 2, "\(sentences) of \(total): \(result.error)")
    }

    @Test("--stats on a device: how late the reports arrived (first byte minus the receiver's UTC time), for chrony's offset")
    func latencyStats() throws {
        let terminal = try PseudoTerminal()
        let result = try Command.run(["read", terminal.devicePath, "--speed", "9600", "--count", "5", "--format", "json", "--stats"]) {
            #expect(terminal.waitUntilConfigured())
            // Each second's report, written 200 ms into that second, as a receiver would.
            for _ in 0..<7 {
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                let nextSecond = Int(now.tv_sec) + 1
                usleep(useconds_t(max(0, 1_200_000_000 - Int(now.tv_nsec)) / 1000))
                var parts = tm()
                var seconds = time_t(nextSecond)
                gmtime_r(&seconds, &parts)
                let time = String(format: "%02d%02d%02d.00", parts.tm_hour, parts.tm_min, parts.tm_sec)
                let date = String(format: "%02d%02d%02d", parts.tm_mday, parts.tm_mon + 1, parts.tm_year % 100)
                terminal.write(Array((SyntheticEpochs.sentence("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
                                      + SyntheticEpochs.sentence("GPRMC,\(time),A,5207.4074,N,00419.2659,E,0.0,0.0,\(date),,,A")).utf8))
            }
        }
        #expect(result.status == 0, "\(result.error)")
        let line = try #require(result.error.split(separator: "\n").first { $0.hasPrefix("latency ") }, "\(result.error)")
        let median = try #require(line.firstMatch(of: /median (\d+\.\d) ms/).flatMap { Double($0.1) }, "\(line)")
        // Written 200 ms into each second (a loaded machine may sleep past that, never short).
        #expect(median > 195 && median < 300, "\(line)")
        let offset = try #require(line.firstMatch(of: /chrony: offset (\d+\.\d+)\)/).flatMap { Double($0.1) }, "\(line)")
        #expect(abs(offset * 1000 - median) < 1, "the median, as chrony's offset: \(line)")
    }

    @Test("replay --speed paces the log by its timestamps: 19 s of log at ×20 take about a second")
    func pacedReplay() throws {
        let start = Date()
        let result = try Command.run(["replay", "--speed", "20", "--format", "json", Command.fixture("sirf-cycle.nmea")])
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == 0)
        #expect(result.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.count == 20)
        #expect(elapsed >= 0.9)
    }

    @Test("stream is read; --device and --baud name the device and its speed")
    func aliases() throws {
        let terminal = try PseudoTerminal()
        let log = try Data(contentsOf: URL(fileURLWithPath: Command.fixture("sirf-cycle.nmea")))
        let result = try Command.run(["stream", "--device", terminal.devicePath, "--baud", "4800", "--count", "1"]) {
            #expect(eventuallyOpen(terminal.devicePath))
            terminal.write(Array(log))
        }
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputLines.count == 1)
    }

    @Test("a missing device says so")
    func missing() throws {
        let result = try Command.run(["read", "/dev/ttyNMEASTREAM-none"])
        #expect(result.status == 69)
        #expect(result.error.contains("/dev/ttyNMEASTREAM-none"))
    }

    @Test("a mistyped command is said to be one, with the closest command's name, not taken for a device that is not plugged in")
    func mistypedCommand() throws {
        let result = try Command.run(["sevre"])
        #expect(result.status == 64)
        #expect(result.error.contains("'sevre' is not a command (did you mean 'serve'?)"), "\(result.error)")
        #expect(!result.error.contains("plugged in"), "\(result.error)")
        let unlike = try Command.run(["xyzzy"])
        #expect(unlike.status == 64)
        #expect(unlike.error.contains("'xyzzy' is not a command, nor a device"), "\(unlike.error)")
        // A path is a device, as before.
        let path = try Command.run(["/dev/nmeastream-no-such-device"])
        #expect(path.status == 69, "\(path.error)")
    }

    @Test("--speed takes a supported speed or auto, and nothing else")
    func speedOption() throws {
        let result = try Command.run(["read", "--speed", "1234", "/dev/null"])
        #expect(result.status == 64)
        // A negative number is a value refused, not a missing one (taken for an option).
        for arguments in [["read", "--speed", "-1", "/dev/null"], ["serve", "--speed", "-1"], ["replay", "--speed", "-2", "x.nmea"],
                          ["read", "--count", "-3", "/dev/null"], ["read", "--timeout", "-1", "/dev/null"]] {
            let negative = try Command.run(arguments)
            #expect(negative.status == 64, "\(arguments)")
            #expect(!negative.error.contains("Missing value"), "\(arguments): \(negative.error)")
            #expect(negative.error.contains(arguments[1]), "\(arguments): \(negative.error)")
        }
    }

    /// Waits until this process has `path` open (the command is a child, so its descriptors are
    /// looked up in /proc).
    private func eventuallyOpen(_ path: String) -> Bool {
        waitUntil { processesWithOpen(path) > 0 }
    }

    private func eventuallyHeld(_ path: String) -> Bool {
        waitUntil {
            let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return flock(fd, LOCK_EX | LOCK_NB) != 0
        }
    }

    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// How many processes other than this one have `path` open.
    private func processesWithOpen(_ path: String) -> Int {
        let me = String(getpid())
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.filter { $0.allSatisfy(\.isNumber) && $0 != me }.count { pid in
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
        }
    }
}
