#if canImport(Glibc)
import Glibc
import Platform
#endif
import Foundation
import Testing
import TestSupport
@testable import NMEAServer
import NMEAStream
import Signals

/// Whether gpsd and gpspipe are here to be compared with.
private var gpsdAndClientsInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: GPSDSideBySideTests.gpsd)
        && FileManager.default.isExecutableFile(atPath: GPSDSideBySideTests.gpspipe)
}

/// gpsd and the server side by side: one log played into two pseudo-terminals at once, one
/// read by gpsd (Debian `gpsd`, `gpsd -b -N -n`), one by the server, each watched through
/// `gpspipe -w`; per epoch the same time, position and mode (compared as the conformance test
/// compares with gpsd's `.chk` files, within 1e-6 degree).
@Suite("side by side with gpsd", .mayBlock, .enabled(if: gpsdAndClientsInstalled, "gpsd or gpsd-clients is not installed"))
struct GPSDSideBySideTests {
    static let gpsd = "/usr/sbin/gpsd"
    static let gpspipe = "/usr/bin/gpspipe"
    static let compared: Set<String> = ["lat", "lon", "mode"]

    /// Each side's TPVs by epoch.
    struct Run {
        var gpsd: [Int64: [String: Any]]
        var ours: [Int64: [String: Any]]

        /// gpsd's epochs that the server reported too (gpsd moves a date it takes to be from
        /// before its build forward by 1024 weeks: matched 1024 weeks earlier), with the
        /// compared fields that differ.
        var common: [(time: Int64, differing: Set<String>)] {
            gpsd.keys.sorted().compactMap { time in
                guard let ours = ours[time] ?? ours[time - TPVEpochs.gpsWeekRollover], let theirs = gpsd[time] else { return nil }
                return (time, TPVEpochs.mismatchedFields(expected: theirs, actual: ours).intersection(GPSDSideBySideTests.compared))
            }
        }
    }

    @Test("the test log: every epoch gpsd reports, the server reports alike, and no other")
    func fixture() throws {
        let run = try Self.sideBySide(Array(try Data(contentsOf: GPSDServerTests.fixture)))
        #expect(run.gpsd.count >= 5, "gpsd reported \(run.gpsd.count) epochs")
        #expect(run.common.count == run.gpsd.count && run.ours.count == run.gpsd.count)
        let differing = run.common.filter { !$0.differing.isEmpty }
        #expect(differing.isEmpty, "epochs that differ: \(differing.map(\.time))")
    }

    @Test("gpsd's own ntrip:// client and nmeastream's against the same caster (RTKLIB's str2str): the same frames, of the same types, in the same order",
          .enabled(if: RTKLIBCaster.isInstalled, "rtklib (str2str) is not installed"))
    func ntripBesideGPSD() throws {
        // Open to anyone: str2str's sourcetable names no authentication, and gpsd follows the
        // table (it sends no credentials to a stream the table does not say needs them).
        let caster = try RTKLIBCaster(authenticated: false)
        defer { caster.stop() }
        let gpsd = try GPSDProcess(device: "ntrip://127.0.0.1:\(caster.port)/MOUNT")
        defer { gpsd.stop() }
        let pipe = try WatchingPipe(port: gpsd.port)
        defer { pipe.stop() }
        let ours = Protected<[RTCM3Frame]>([])
        let streaming = Protected(false)
        let client = NTRIPClient(endpoint: NTRIPEndpoint(host: "127.0.0.1", port: caster.port, mountpoint: "MOUNT"), version: .v1) { event in
            switch event {
            case .frame(let frame): ours.withLock { $0.append(frame) }
            case .streaming: streaming.withLock { $0 = true }
            default: break
            }
        }
        client.start()
        defer { client.stop() }
        try #require(eventually { streaming.withLock { $0 } && pipe.output.contains("\"class\":\"WATCH\"") }, "\(gpsd.log)")
        // Both connected before the first frame: the caster relays what arrives after.
        usleep(1_500_000)
        let sender = try LineClient(port: caster.input)
        let frames = (0..<30).map { RTCM3TestFrames.stationPosition(station: 100 + $0) }
        for frame in frames {
            sender.send(bytes: frame)
            usleep(20_000)
        }
        // Each frame gpsd reported: its type and station.
        let theirs = { pipe.lines.filter { $0.contains("\"class\":\"RTCM3\"") }.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let type = object["type"] as? Int, let station = object["station_id"] as? Int else { return nil }
            return "\(type) \(station)"
        } }
        #expect(eventually { ours.withLock { $0.count } == frames.count && theirs().count == frames.count },
                "nmeastream \(ours.withLock { $0.count }), gpsd \(theirs().count) of \(frames.count): \(gpsd.log)")
        #expect(ours.withLock { $0.map(\.bytes) } == frames)
        #expect(theirs() == (0..<30).map { "1005 \(100 + $0)" })
    }

    @Test("an upstream gpsd (gpsd://HOST:PORT/DEVICE): the server decodes the receiver's own bytes through it, every epoch gpsd reports, alike")
    func upstreamGPSD() throws {
        let log = Array(try Data(contentsOf: GPSDServerTests.fixture))
        let terminal = try PseudoTerminal()
        Self.makeRaw(terminal.devicePath)
        let gpsd = try GPSDProcess(device: terminal.devicePath)
        defer { gpsd.stop() }
        let upstream = "gpsd://127.0.0.1:\(gpsd.port)\(terminal.devicePath)"
        let server = GPSDServer(configuration: .init(devices: [upstream], speed: 9600, listen: [("127.0.0.1", 0)]))
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let theirPipe = try WatchingPipe(port: gpsd.port), ourPipe = try WatchingPipe(port: port)
        defer {
            theirPipe.stop()
            ourPipe.stop()
        }
        try #require(eventually { theirPipe.output.contains("\"class\":\"WATCH\"") && ourPipe.output.contains("\"class\":\"WATCH\"") },
                     "gpspipe did not start watching")
        #expect(ourPipe.output.contains("\"path\":\"\(upstream)\""))
        // The server connects upstream for its first watcher: on the loopback, at once.
        usleep(1_000_000)
        try Self.play(log, to: [(terminal, { "gpsd stopped reading its terminal: \(gpsd.log)" })])
        Self.waitUntilQuiet(theirPipe, ourPipe)
        let run = Run(gpsd: TPVEpochs.epochs(lines: theirPipe.lines), ours: TPVEpochs.epochs(lines: ourPipe.lines))
        #expect(run.gpsd.count >= 5, "gpsd reported \(run.gpsd.count) epochs")
        #expect(run.common.count == run.gpsd.count, "the server reported \(run.common.count) of gpsd's \(run.gpsd.count) epochs")
        let differing = run.common.filter { !$0.differing.isEmpty }
        #expect(differing.isEmpty, "epochs that differ: \(differing.map(\.time))")
    }

    @Test("gpsd reading the server's NMEA feed (gpsd -n tcp://HOST:PORT) reports every epoch gpsd reading the receiver reports, alike")
    func gpsdReadsTheFeed() throws {
        let log = Array(try Data(contentsOf: GPSDServerTests.fixture))
        let direct = try PseudoTerminal(), served = try PseudoTerminal()
        Self.makeRaw(direct.devicePath)
        let gpsd = try GPSDProcess(device: direct.devicePath)
        defer { gpsd.stop() }
        var configuration = GPSDServer.Configuration(devices: [served.devicePath], speed: 9600, listen: [("127.0.0.1", 0)])
        configuration.nmeaFeed = [("127.0.0.1", 0)]
        let server = GPSDServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        let feedPort = try #require(server.nmeaFeedAddresses.first?.port)
        // gpsd connects to the feed at its start (-n): the server opens the receiver for it.
        let downstream = try GPSDProcess(device: "tcp://127.0.0.1:\(feedPort)")
        defer { downstream.stop() }
        let directPipe = try WatchingPipe(port: gpsd.port), feedPipe = try WatchingPipe(port: downstream.port)
        defer {
            directPipe.stop()
            feedPipe.stop()
        }
        try #require(eventually { directPipe.output.contains("\"class\":\"WATCH\"") && feedPipe.output.contains("\"class\":\"WATCH\"") },
                     "gpspipe did not start watching")
        try #require(served.waitUntilConfigured(), "gpsd did not connect to the feed: \(downstream.log)")
        try Self.play(log, to: [(direct, { "gpsd stopped reading its terminal: \(gpsd.log)" }),
                                (served, { "the server stopped reading its terminal" })])
        Self.waitUntilQuiet(directPipe, feedPipe)
        let run = Run(gpsd: TPVEpochs.epochs(lines: directPipe.lines), ours: TPVEpochs.epochs(lines: feedPipe.lines))
        #expect(run.gpsd.count >= 5, "gpsd reported \(run.gpsd.count) epochs")
        #expect(run.common.count == run.gpsd.count && run.ours.count == run.gpsd.count,
                "through the feed gpsd reported \(run.ours.count) epochs, \(run.common.count) of the \(run.gpsd.count) it reported reading the receiver")
        // The same sentences reach both: every member of every TPV is the same, but the device's name.
        let differing = run.gpsd.keys.sorted().filter { time in
            var theirs = run.gpsd[time] ?? [:], ours = run.ours[time] ?? [:]
            theirs["device"] = nil
            ours["device"] = nil
            return !NSDictionary(dictionary: theirs).isEqual(to: ours)
        }
        #expect(differing.isEmpty, "epochs that differ: \(differing.prefix(3).map { (run.gpsd[$0] ?? [:], run.ours[$0] ?? [:]) })")
    }

    @Test("every log of the corpus: the epochs both report agree, but for the differences Tests/KNOWN-DIFFERENCES.md explains",
          .enabled(if: Corpus.isAvailable, "../shared/corpus is absent"))
    func corpus() throws {
        let logs = try Corpus.logs(in: "gpsd-nmea")
        let result = try Self.compare(logs)
        print("side by side with gpsd: \(logs.count) logs, gpsd reported \(result.gpsdEpochs) epochs, the server \(result.common) of them; \(result.common - result.differing) agree, \(result.differing) differ as documented")
        #expect(result.gpsdEpochs > 1500)
        #expect(Double(result.common) >= 0.95 * Double(result.gpsdEpochs), "the server reported \(result.common) of gpsd's \(result.gpsdEpochs) epochs")
        #expect(result.unexplained.isEmpty, "differences not in Tests/KNOWN-DIFFERENCES.md:\n\(result.unexplained.joined(separator: "\n"))")
    }

    /// A receiver that sends its VTG first in each cycle, and one that sends it last: RMC and
    /// VTG of a cycle agree (one solution's), and the speed and course change every cycle.
    static func movingLog(vtgFirst: Bool) -> [UInt8] {
        var text = ""
        for second in 0..<12 {
            let time = String(format: "1200%02d.00", second)
            let knots = String(format: "%05.1f", Double(1 + second)), course = String(format: "%05.1f", Double(10 * second))
            let vtg = SyntheticEpochs.sentence("GPVTG,\(course),T,,M,\(knots),N,,K,A")
            let cycle = SyntheticEpochs.sentence("GPRMC,\(time),A,5207.4074,N,00419.2659,E,\(knots),\(course),050624,,,A")
                + SyntheticEpochs.sentence("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            text += vtgFirst ? vtg + cycle : cycle + vtg
        }
        return Array(text.utf8)
    }

    @Test("VTG before or after its cycle's RMC: gpsd and the server report every epoch, with the same speed and course", arguments: [true, false])
    func vtgOrder(vtgFirst: Bool) throws {
        // A cycle a burst, then a pause longer than the burst takes at the server's 9600 bit/s,
        // as a receiver sends them: the server sees the line go quiet between cycles, and ends
        // each epoch at its burst's end, the last one too, whichever end its VTG is at.
        let run = try Self.sideBySide(Self.movingLog(vtgFirst: vtgFirst), linesPerBurst: 3, pause: 300_000)
        #expect(run.gpsd.count >= 10)
        #expect(run.common.count >= run.gpsd.count, "ours \(run.ours.keys.sorted()), gpsd's \(run.gpsd.keys.sorted())")
        for (time, theirs) in run.gpsd {
            guard let ours = run.ours[time] else { continue }
            #expect(abs((ours["speed"] as? Double ?? -1) - (theirs["speed"] as? Double ?? -2)) < 0.01,
                    "speed at \(time): \(ours["speed"] as Any) against gpsd's \(theirs["speed"] as Any)")
            #expect(abs((ours["track"] as? Double ?? -1) - (theirs["track"] as? Double ?? -2)) < 0.01, "track at \(time)")
        }
    }

    /// gpsd decodes UBX too (read-only, `-b`: it writes nothing to switch the receiver): the
    /// u-blox logs of `gpsd-mixed` played to both, UBX alone or beside NMEA.
    @Test("u-blox logs (UBX): the epochs both report agree, but for the differences Tests/KNOWN-DIFFERENCES.md explains",
          .enabled(if: Corpus.isAvailable, "../shared/corpus is absent"))
    func ubloxLogs() throws {
        let logs = try Corpus.logs(in: "gpsd-mixed").filter {
            $0.lastPathComponent.hasPrefix("ublox-") && !$0.lastPathComponent.contains("sirf")
        }
        let result = try Self.compare(logs)
        print("side by side with gpsd, u-blox: \(logs.count) logs, gpsd reported \(result.gpsdEpochs) epochs, the server \(result.common) of them; \(result.common - result.differing) agree, \(result.differing) differ as documented")
        #expect(result.gpsdEpochs > 400)
        #expect(Double(result.common) >= 0.95 * Double(result.gpsdEpochs), "the server reported \(result.common) of gpsd's \(result.gpsdEpochs) epochs")
        #expect(result.unexplained.isEmpty, "differences not in Tests/KNOWN-DIFFERENCES.md:\n\(result.unexplained.joined(separator: "\n"))")
    }

    /// What playing logs side by side found.
    struct Comparison {
        var gpsdEpochs = 0
        var common = 0
        var differing = 0
        var unexplained: [String] = []
    }

    /// Plays each log side by side, four at a time, and compares the epochs both report; a
    /// log's differences are explained when its row in Tests/KNOWN-DIFFERENCES.md allows them.
    static func compare(_ logs: [URL]) throws -> Comparison {
        let known = try KnownDifferences.load()
        let results = Protected<[String: Result<Run, any Error>]>([:])
        // Four logs at a time: each run mostly waits on its pacing. On threads of their own:
        // runs that sleep and wait on Dispatch's global queue would hold its few threads, and
        // every reader queue of the other tests (which targets it) would stall behind them.
        let slots = DispatchSemaphore(value: 4)
        let group = DispatchGroup()
        for log in logs {
            slots.wait()
            group.enter()
            Thread.detachNewThread {
                defer {
                    slots.signal()
                    group.leave()
                }
                let result = Result { try Self.sideBySide(Array(try Data(contentsOf: log))) }
                results.withLock { $0[log.lastPathComponent] = result }
            }
        }
        group.wait()
        var comparison = Comparison()
        for (name, result) in results.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            let run = try result.get()
            let pairs = run.common
            let bad = pairs.filter { !$0.differing.isEmpty }
            comparison.gpsdEpochs += run.gpsd.count
            comparison.common += pairs.count
            comparison.differing += bad.count
            guard !bad.isEmpty else { continue }
            let fields = bad.reduce(into: Set<String>()) { $0.formUnion($1.differing) }
            if let entry = known[name], bad.count <= entry.epochs, fields.isSubset(of: entry.fields) { continue }
            comparison.unexplained.append("\(name): \(bad.count) epochs differ in \(fields.sorted()) (first at \(bad[0].time))")
        }
        return comparison
    }

    /// Plays `log` into two pseudo-terminals at once, eight lines every 20 ms, one read by gpsd
    /// and one by the server, each watched by `gpspipe -w`.
    static func sideBySide(_ log: [UInt8], linesPerBurst: Int = 8, pause: useconds_t = 20_000) throws -> Run {
        let theirs = try PseudoTerminal(), ours = try PseudoTerminal()
        makeRaw(theirs.devicePath)
        let gpsd = try GPSDProcess(device: theirs.devicePath)
        defer { gpsd.stop() }
        let server = GPSDServer(configuration: .init(devices: [ours.devicePath], speed: 9600, listen: [("127.0.0.1", 0)]))
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let theirPipe = try WatchingPipe(port: gpsd.port), ourPipe = try WatchingPipe(port: port)
        defer {
            theirPipe.stop()
            ourPipe.stop()
        }
        try #require(eventually { theirPipe.output.contains("\"class\":\"WATCH\"") && ourPipe.output.contains("\"class\":\"WATCH\"") },
                     "gpspipe did not start watching")
        // The server opens its device for its first watcher; gpsd has had its open since it started.
        try #require(ours.waitUntilConfigured())
        try Self.play(log, to: [(theirs, { "gpsd stopped reading its terminal: \(gpsd.log)" }),
                                (ours, { "the server stopped reading its terminal" })],
                      linesPerBurst: linesPerBurst, pause: pause)
        // The last epoch is reported when the one after it would start, or at the end of the
        // stream: both sides have had their time once nothing new comes for a second.
        Self.waitUntilQuiet(theirPipe, ourPipe)
        return Run(gpsd: TPVEpochs.epochs(lines: theirPipe.lines), ours: TPVEpochs.epochs(lines: ourPipe.lines))
    }

    /// Writes `log` line by line to each terminal in turn, pausing after every `linesPerBurst`
    /// lines; a terminal whose reader died (it stays full) fails with its message, not a hang.
    static func play(_ log: [UInt8], to terminals: [(PseudoTerminal, () -> String)], linesPerBurst: Int = 8,
                     pause: useconds_t = 20_000) throws {
        let lines = log.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let bytes = Array(line) + (index < lines.count - 1 ? [0x0A] : [])
            for (terminal, failure) in terminals { try #require(terminal.write(bytes, seconds: 20), "\(failure())") }
            if index % linesPerBurst == linesPerBurst - 1 { usleep(pause) }
        }
    }

    /// Waits until neither pipe has had anything new for a second.
    static func waitUntilQuiet(_ theirs: WatchingPipe, _ ours: WatchingPipe) {
        var previous = (0, 0)
        while true {
            usleep(1_000_000)
            let now = (theirs.output.utf8.count, ours.output.utf8.count)
            if now == previous { break }
            previous = now
        }
    }

    /// The terminal's line discipline out of the way (no echo, no line editing), as a serial
    /// port is: gpsd opens it read-only and leaves its settings.
    static func makeRaw(_ path: String) {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var settings = termios()
        tcgetattr(descriptor, &settings)
        cfmakeraw(&settings)
        tcsetattr(descriptor, TCSANOW, &settings)
    }

    /// gpsd in the foreground, on a port of its own, with the device open from the start and
    /// read-only (`-b`: no probe is written to it).
    final class GPSDProcess {
        let port: Int
        private let child: ChildProcess
        private let control: String
        private let logPath: String

        /// What gpsd said on standard error (why it exited, if it did).
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        init(device: String) throws {
            var attempt = 0
            while true {
                attempt += 1
                // Drawn once in the process, below the ephemeral range: the side-by-side tests
                // run at once, and two gpsds on one port had one exit while the other greeted
                // both tests.
                let port = freeLoopbackPort()
                let control = FileManager.default.temporaryDirectory.appendingPathComponent("gpsd-\(UUID().uuidString).sock").path
                let log = control + ".log"
                let child = try ChildProcess(GPSDSideBySideTests.gpsd, ["-b", "-N", "-n", "-S", "\(port)", "-F", control, device],
                                             errorPath: log)
                // Until it greets a client, or exits (its port was taken); a loaded machine may
                // take a while.
                let answered = eventually(seconds: 60) {
                    !child.isRunning || (try? LineClient(port: port).readLine(seconds: 0.5)) != nil
                }
                if answered, child.isRunning {
                    self.port = port
                    self.child = child
                    self.control = control
                    self.logPath = log
                    return
                }
                try? FileManager.default.removeItem(atPath: log)
                child.terminate()
                child.waitForExit()
                try? FileManager.default.removeItem(atPath: control)
                guard !answered || attempt < 5 else { throw GPSDDidNotStart(detail: "gpsd exited five times: ports taken?") }
                guard answered else { throw GPSDDidNotStart(detail: "gpsd did not answer on port \(port) within 60 s") }
            }
        }

        func stop() {
            child.terminate()
            child.waitForExit()
            try? FileManager.default.removeItem(atPath: control)
            try? FileManager.default.removeItem(atPath: logPath)
        }
    }

    /// gpsd could not be started.
    struct GPSDDidNotStart: Error, CustomStringConvertible {
        var detail: String
        var description: String { detail }
    }

    /// `gpspipe -w` into a file (a pipe could fill and hold up the server it reads).
    final class WatchingPipe {
        private let child: ChildProcess
        private let file: String

        init(port: Int) throws {
            file = FileManager.default.temporaryDirectory.appendingPathComponent("gpspipe-\(UUID().uuidString).json").path
            child = try ChildProcess(GPSDSideBySideTests.gpspipe, ["-w", "127.0.0.1:\(port)"], outputPath: file)
        }

        var output: String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        var lines: [String] { output.split(whereSeparator: \.isNewline).map(String.init) }

        func stop() {
            child.terminate()
            child.waitForExit()
            try? FileManager.default.removeItem(atPath: file)
        }
    }
}
