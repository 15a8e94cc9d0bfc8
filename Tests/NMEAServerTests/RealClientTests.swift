#if canImport(Glibc)
import Platform
import Glibc
#endif
import Foundation
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream

/// gpsd's own clients against the server: `gpspipe` (Debian `gpsd-clients`) and Python's
/// `gps` module (`python3-gps`), which parse what the server sends as they parse gpsd's.
@Suite("Real gpsd clients", .mayBlock, .serialized)
struct RealClientTests {
    static let gpspipe = "/usr/bin/gpspipe"
    static let python = "/usr/bin/python3"
    static let cgps = "/usr/bin/cgps"
    static let tmux = "/usr/bin/tmux"
    static var hasGpspipe: Bool { FileManager.default.isExecutableFile(atPath: gpspipe) }
    static var hasCgpsAndTmux: Bool {
        FileManager.default.isExecutableFile(atPath: cgps) && FileManager.default.isExecutableFile(atPath: tmux)
    }
    static var hasPythonGPS: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gps/__init__.py")
            && FileManager.default.isExecutableFile(atPath: python)
    }

    /// A server of one pseudo-terminal that a background thread feeds the fixture, cycle by
    /// cycle, until `stop` is set.
    final class Feed: @unchecked Sendable {
        let terminal: PseudoTerminal
        let server: GPSDServer
        let port: Int
        private let stopped = DispatchSemaphore(value: 0)
        private let lock = Lock()
        private var stop = false

        init() throws {
            terminal = try PseudoTerminal()
            server = GPSDServer(configuration: .init(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)]))
            port = try server.start().first?.port ?? 0
            let bytes = Array(try Data(contentsOf: GPSDServerTests.fixture))
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
            // Like a receiver, the feed never waits: while nobody reads the device (before the
            // first watcher, after the last), what does not fit in the terminal is lost.
            let master = terminal.master
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            Thread.detachNewThread { [self] in
                var index = 0
                while !(lock.withLock { stop }) {
                    // A tenth of the fixture every 50 ms: a receiver at about 20 epochs a second.
                    for _ in 0..<max(1, lines.count / 10) {
                        let line = Array(lines[index % lines.count]) + [0x0A]
                        _ = line.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                        index += 1
                    }
                    usleep(50_000)
                }
                stopped.signal()
            }
        }

        func finish() {
            lock.withLock { stop = true }
            stopped.wait()
            server.stop()
        }
    }

    /// Runs `body` in Python with `gps`, `math` and `sys` imported and `session`, a `gps.gps`
    /// watching `feed`'s server in JSON.
    func runPython(watching feed: Feed, _ body: String) throws -> (status: Int32, output: String) {
        let script = """
            import gps, math, sys
            session = gps.gps(host="127.0.0.1", port="\(feed.port)", mode=gps.WATCH_ENABLE | gps.WATCH_JSON)

            """ + body
        return try run(Self.python, ["-c", script])
    }

    func run(_ executable: String, _ arguments: [String], seconds: Double = 20) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + seconds) == .timedOut { process.terminate() }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    @Test("gpspipe -w: VERSION, DEVICES, WATCH, then TPV and SKY tagged with the device", .enabled(if: hasGpspipe, "gpsd-clients is not installed"))
    func gpspipeJSON() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let (status, output) = try run(Self.gpspipe, ["-w", "-n", "30", "127.0.0.1:\(feed.port)"])
        #expect(status == 0, "\(output)")
        // CR LF is one Character: split on any line end.
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.first?.hasPrefix("{\"class\":\"VERSION\"") == true)
        let tagged = "\"device\":\"\(feed.terminal.devicePath)\""
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"TPV\"") && $0.contains(tagged) && $0.contains("\"lat\":") }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"SKY\"") && $0.contains(tagged) }, "\(output)")
    }

    @Test("gpspipe -w -P (pps in its WATCH): TOFF reports beside TPV, each a whole second of the receiver's time", .enabled(if: hasGpspipe, "gpsd-clients is not installed"))
    func gpspipeTimeOffsets() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let (status, output) = try run(Self.gpspipe, ["-w", "-P", "-n", "80", "127.0.0.1:\(feed.port)"])
        #expect(status == 0, "\(output)")
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"WATCH\"") && $0.contains("\"pps\":true") }, "\(output)")
        let offsets = lines.filter { $0.hasPrefix("{\"class\":\"TOFF\",\"device\":\"\(feed.terminal.devicePath)\"") }
        #expect(!offsets.isEmpty && offsets.allSatisfy { $0.contains("\"real_nsec\":0,") && $0.hasSuffix("\"precision\":-1}") }, "\(output)")
    }

    @Test("gpspipe -r: the receiver's sentences as it sent them", .enabled(if: hasGpspipe, "gpsd-clients is not installed"))
    func gpspipeRaw() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let (status, output) = try run(Self.gpspipe, ["-r", "-n", "30", "127.0.0.1:\(feed.port)"])
        #expect(status == 0, "\(output)")
        let sentences = output.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("$") }
        #expect(sentences.count >= 10, "\(output)")
        let fixture = String(decoding: try Data(contentsOf: GPSDServerTests.fixture), as: UTF8.self)
        #expect(sentences.allSatisfy { fixture.contains($0) }, "every line is one the receiver sent")
    }

    @Test("Python's gps module: gps.gps(mode=WATCH_ENABLE) gets fixes with time, lat and lon", .enabled(if: hasPythonGPS, "python3-gps is not installed"))
    func pythonGPS() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let (status, output) = try runPython(watching: feed, """
            seen = 0
            for report in session:
                if report["class"] == "TPV" and "lat" in report and "time" in report:
                    print("fix", report["time"], report["lat"], report["lon"], report["device"])
                    seen += 1
                    if seen == 3:
                        sys.exit(0)
            """)
        #expect(status == 0, "\(output)")
        let fixes = output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("fix ") }
        #expect(fixes.count == 3, "\(output)")
        #expect(fixes.allSatisfy { $0.hasSuffix(feed.terminal.devicePath) })
    }

    @Test("Python's gps module with WATCH_PPS: a TOFF a second, the true time a whole second before the clock time it arrived at; without it, none",
          .enabled(if: hasPythonGPS, "python3-gps is not installed"))
    func pythonTimeOffsets() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let script = """
            import gps, sys
            session = gps.gps(host="127.0.0.1", port="\(feed.port)", mode=gps.WATCH_ENABLE | gps.WATCH_JSON | gps.WATCH_PPS)
            seen = []
            for report in session:
                if report["class"] == "TOFF":
                    # The feed plays its log round and round: its times start again at each turn.
                    if seen and report["real_sec"] <= seen[-1]["real_sec"]:
                        seen = []
                    seen.append(report)
                    if len(seen) == 3:
                        for toff in seen:
                            print("toff", toff["device"], toff["real_sec"], toff["real_nsec"], toff["clock_sec"], toff["clock_nsec"], toff["precision"])
                        sys.exit(0)
            """
        let (status, output) = try run(Self.python, ["-c", script])
        #expect(status == 0, "\(output)")
        let samples = output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("toff ") }.map { $0.split(separator: " ") }
        #expect(samples.count == 3, "\(output)")
        #expect(samples.allSatisfy { $0.count == 7 && $0[1] == feed.terminal.devicePath && $0[3] == "0" && $0[6] == "-1" }, "\(output)")
        let reals = samples.compactMap { Int($0[2]) }
        #expect(zip(reals.dropFirst(), reals).allSatisfy { $0 > $1 }, "one per second of the receiver's time, in order: \(reals)")
        // Without pps, the same client gets no TOFF among its reports.
        let (plainStatus, plain) = try runPython(watching: feed, """
            count = 0
            for report in session:
                if report["class"] == "TOFF":
                    print("toff")
                    sys.exit(1)
                count += 1
                if count == 40:
                    sys.exit(0)
            """)
        #expect(plainStatus == 0 && !plain.contains("toff"), "\(plain)")
    }

    @Test("Python's gps module: fix.altitude, which it reads from alt, is the fix's altitude above mean sea level", .enabled(if: hasPythonGPS, "python3-gps is not installed"))
    func pythonAltitude() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let (status, output) = try runPython(watching: feed, """
            for report in session:
                # A 3D fix that has an altitude (an epoch cut short, on a slow machine, may not).
                if report["class"] == "TPV" and report.get("mode", 0) == 3 and "altMSL" in report:
                    print("altitude", session.fix.altitude, session.fix.altMSL)
                    sys.exit(0 if math.isfinite(session.fix.altitude) else 1)
            """)
        #expect(status == 0, "\(output)")
        let line = output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("altitude ") }
        let values = line?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        #expect(values.count == 2 && values[0] == values[1], "\(output)")
    }

    @Test("Python's gps module: the error estimates and every dilution (cgps's error rows) are numbers", .enabled(if: hasPythonGPS, "python3-gps is not installed"))
    func pythonErrorEstimates() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let (status, output) = try runPython(watching: feed, """
            fields = ("ept", "epx", "epy", "epv")
            dops = ("xdop", "ydop", "vdop", "hdop", "pdop", "tdop", "gdop")
            for report in session:
                # A whole epoch's TPV: one cut short on a slow machine (a pause inside the
                # receiver's burst ends it early) may have its dilutions without its time, so no ept.
                if report["class"] == "TPV" and report.get("mode", 0) == 3 and "time" in report and "epx" in report and "epv" in report and session.xdop > 0:
                    # The module keeps no eph or sep (libgps and cgps do): read from the report.
                    values = [getattr(session.fix, name) for name in fields] + [report.get("eph", math.nan), report.get("sep", math.nan)]
                    values += [getattr(session, name) for name in dops]
                    print("estimates", *values)
                    sys.exit(0 if all(math.isfinite(v) and v > 0 for v in values) else 1)
            """)
        #expect(status == 0, "\(output)")
        let line = output.split(whereSeparator: \.isNewline).first { $0.hasPrefix("estimates ") }
        let values = line?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        try #require(values.count == 13, "\(output)")
        // The fixture's GGA is quality 2 (DGPS): gpsd's UERE for differential fixes, 4.75 m for
        // eph, times the receiver's HDOP of 0.62.
        #expect(abs(values[4] - 0.62 * 4.75) < 0.001, "\(output)")
    }

    @Test("cgps in a terminal (tmux): the screen shows the position and the satellite table", .enabled(if: hasCgpsAndTmux, "gpsd-clients or tmux is not installed"))
    func cgpsScreen() throws {
        let feed = try Feed()
        defer { feed.finish() }
        let socket = "nmeastream-cgps-\(UUID().uuidString)"
        // tmux leaves its server behind: started and stopped without Foundation's Process.
        let started = spawnAndWait(Self.tmux, ["-L", socket, "new-session", "-d", "-x", "100", "-y", "30",
                                               "\(Self.cgps) 127.0.0.1:\(feed.port)"])
        try #require(started == 0, "tmux did not start")
        defer { _ = spawnAndWait(Self.tmux, ["-L", socket, "kill-server"]) }
        var screen = ""
        let deadline = Date().addingTimeInterval(15)
        // The fixture's fix (52.123456783 N, 4.321098767 E, GGA quality 2), and its sky: one SKY
        // for the epoch's four constellations, 14 satellites of which 12 used; its error rows. cgps writes a
        // signal's u-blox number after the svid: nothing for Galileo E1 (0), 2 for BeiDou B2I.
        let expected = ["52.12345678 N", "4.32109877 E", "3D DGPS FIX", "Seen 14/Used 12", "GP  5", "GL  6", "GA  4  304", "BD 112 411",
                        // The error rows: dilutions from the sky's geometry, estimates from gpsd's model.
                        "Long Err  (XDOP, EPX):  0.55, +/-  2.0 m", "2D Err    (HDOP, CEP):  0.62, +/-  2.9 m",
                        "Alt Err   (VDOP, EPV):  0.91, +/-  5.2 m", "Geo Err   (GDOP):       2.39"]
        while Date() < deadline {
            screen = try run(Self.tmux, ["-L", socket, "capture-pane", "-p"]).output
            if expected.allSatisfy(screen.contains) { break }
            usleep(200_000)
        }
        for text in expected { #expect(screen.contains(text), "\(text) not on the screen:\n\(screen)") }
        let used = screen.split(separator: "\n").filter { $0.hasSuffix("  Y x") }
        #expect(used.count == 12, "the used satellites in the table:\n\(screen)")
    }
}
