import ArgumentParser
import Dispatch
import Foundation
import NMEAStream

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a GPS receiver and print its fixes (the default command).",
        discussion: """
            With no device named, the best receiver plugged in is used (see `nmeastream list`), \
            at the speed found by listening; which one is said on standard error. \
            The device is opened exclusively, set to raw 8N1 and read until the count is reached, \
            the device goes away, or Ctrl-C; its settings are restored on the way out. With \
            --speed auto the speed is found by listening (nothing is written to the receiver).

            Exit codes: 0 success; 64 usage error; 69 no receiver found, or the device cannot be \
            used (missing, permission denied, busy, not a serial device, no NMEA at any speed); \
            74 the device went away or failed while reading; 75 no fix before --timeout.

            Examples:
              nmeastream
              nmeastream --format json --count 10
              nmeastream --watch
              nmeastream read /dev/ttyACM0
              nmeastream read --speed auto --format json --count 10 /dev/ttyUSB0
            """,
        aliases: ["stream"]
    )

    @Argument(help: "The serial device, such as /dev/ttyACM0 or a /dev/serial/by-id/ link; the best receiver plugged in when left out.")
    var devicePath: String?

    @Option(name: .customLong("device"), help: "The serial device (the same as the argument).")
    var deviceOption: String?

    @Option(name: [.customLong("speed"), .customLong("baud")],
            help: "The speed in bits per second (4800 to 921600), or auto to find it (default: 9600 for a named device, auto otherwise).")
    var speed: SpeedArgument?

    /// The device named, by argument or option.
    var device: String? { devicePath ?? deviceOption }

    @Option(help: "Output format: text (a line per fix), json (gpsd TPV and SKY lines), nmea (valid sentences), csv, gpx.")
    var format: OutputFormat = .text

    @Option(help: "Stop after this many fixes.")
    var count: Int?

    @Flag(help: "With no device named: wait for a receiver to be plugged in, and carry on with the next one when it is unplugged.")
    var watch = false

    @Flag(help: "At the end, print counts of sentences and rejects by reason, and the fix rate, to standard error.")
    var stats = false

    @Option(help: "Give up, with exit code 75, when no fix (of --min-mode) has come after this many seconds.")
    var timeout: Double?

    @Option(help: "Only fixes at least this good are printed and counted: 2d or 3d.")
    var minMode: MinimumMode?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if devicePath != nil, deviceOption != nil {
            throw ValidationError("name the device once: as the argument or with --device")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be above 0") }
        if device != nil, watch {
            throw ValidationError("--watch follows the best receiver plugged in; leave the device out")
        }
        if device == nil, speed != nil {
            throw ValidationError("--speed needs a device; without one, the speed is found by listening")
        }
    }

    func run() throws {
        let source: GPSSource = if let device {
            .serial(path: device, speed: speed?.speed ?? 9600)
        } else if watch {
            .watch
        } else {
            .automatic
        }
        try readFixes(from: source, format: format, count: count, stats: stats, timeout: timeout,
                      minimumMode: minMode?.mode ?? .unknown)
    }
}

/// `--min-mode`.
enum MinimumMode: String, ExpressibleByArgument, CaseIterable {
    case twoD = "2d"
    case threeD = "3d"

    var mode: FixMode { self == .twoD ? .twoD : .threeD }
}

/// Reads `source` and prints its fixes in `format` until `count` fixes, its end, or Ctrl-C;
/// a failure is one line on standard error and an exit code.
func readFixes(from source: GPSSource, format: OutputFormat, count: Int?, stats: Bool = false,
               timeout: Double? = nil, minimumMode: FixMode = .unknown, title: String? = nil) throws {
    let printer = FixPrinter(format: format, limit: count, minimumMode: minimumMode,
                             panelTitle: title ?? "nmeastream  \(source)")
    let reader = NMEAReader(source: source)
    reader.delegate = printer
    // Ctrl-C and kill: stop the reader, which restores the device's settings, then leave.
    let signals = stopOnSignals { printer.finish(.success) }
    let start = DispatchTime.now().uptimeNanoseconds
    if let timeout {
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if !printer.hasPrinted { printer.finish(.timedOut(timeout)) }
        }
    }
    reader.start()
    let outcome = printer.wait()
    reader.stop()
    signals.forEach { $0.cancel() }
    printer.flush()
    if stats {
        StatisticsReport.print(reader.statistics, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    switch outcome {
    case .success:
        return
    case .failure(let error):
        printError(error.description)
        throw ExitCode(ReadCommand.exitCode(for: error))
    case .timedOut(let seconds):
        printError("no fix\(minimumMode == .unknown ? "" : " of \(minimumMode) or better") after \(fixedPoint(seconds, decimals: 1)) s; "
                   + "check the antenna's view of the sky (a cold start can take a minute or more)")
        throw ExitCode(75)
    }
}

extension ReadCommand {
    static func exitCode(for error: GPSError) -> Int32 {
        switch error {
        case .deviceLost, .readError: 74
        default: 69
        }
    }
}

/// `--speed`: a number of bits per second, or `auto`.
struct SpeedArgument: ExpressibleByArgument {
    var speed: SerialSpeed

    init(speed: SerialSpeed) { self.speed = speed }

    init?(argument: String) {
        if argument == "auto" || argument == "automatic" {
            speed = .automatic
        } else if let value = Int(argument), SerialSpeed.supported.contains(value) {
            speed = .bitsPerSecond(value)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { speed.description }
}

/// Prints what a reader delivers, and tells the command when to stop.
final class FixPrinter: NMEAReaderDelegate, @unchecked Sendable {
    enum Outcome {
        case success
        case failure(GPSError)
        case timedOut(Double)
    }

    private let format: OutputFormat
    private let limit: Int?
    // Touched on the reader's queue only, until `flush`.
    private let output = BufferedOutput()
    private var writer = JSONWriter()
    private var fixes = 0
    /// Set once `--count` fixes were printed: what the reader delivers before it stops is dropped.
    private var isDone = false
    private let outcome = Protected<Outcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    private let minimumMode: FixMode
    private let printed = Protected(false)
    /// The live panel, for the text format on a terminal.
    private let panel: LivePanel?

    /// Whether a fix has been printed (read from any thread).
    var hasPrinted: Bool { printed.withLock { $0 } }

    init(format: OutputFormat, limit: Int?, minimumMode: FixMode = .unknown, panelTitle: String = "nmeastream") {
        self.format = format
        self.limit = limit
        self.minimumMode = minimumMode
        panel = format == .text && LivePanel.isWanted ? LivePanel(title: panelTitle + "   (Ctrl-C to stop)") : nil
        if let header = format.header {
            output.write(header)
            output.flush()
        }
    }

    func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
        guard !isDone, fix.mode >= minimumMode else { return }
        printed.withLock { $0 = true }
        switch format {
        case .json:
            writer.reset()
            GPSDJSON.writeTPV(fix, to: &writer)
            writer.withBytes { output.writeLine($0) }
        case .text:
            if let panel {
                panel.update(fix, to: output)
            } else {
                output.write(FixText.line(fix) + "\n")
            }
        case .csv:
            output.write(CSV.row(fix))
        case .gpx:
            if let point = GPX.point(fix) { output.write(point) }
        case .nmea:
            break
        }
        // A live receiver: each fix is shown as it comes.
        output.flush()
        fixes += 1
        if let limit, fixes >= limit {
            isDone = true
            finish(.success)
        }
    }

    func reader(_ reader: NMEAReader, didUpdate satellites: SatelliteView) {
        panel?.update(satellites)
        guard format == .json, !isDone else { return }
        writer.reset()
        GPSDJSON.writeSKY(satellites, to: &writer)
        writer.withBytes { output.writeLine($0) }
    }

    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) {
        guard format == .nmea, !isDone else { return }
        sentence.withUnsafeBytes { output.write($0) }
        output.write([0x0D, 0x0A])
        output.flush()
    }

    func reader(_ reader: NMEAReader, didChoose port: SerialPortInfo) {
        let name = port.catalogueEntry?.name ?? [port.vendor, port.product].compactMap { $0 }.joined(separator: " ")
        printError("reading \(port.preferredPath)\(name.isEmpty ? "" : " (\(name))")")
    }

    func reader(_ reader: NMEAReader, didLoseDevice path: String) {
        output.flush()
        printError("\(path) went away; waiting for a receiver")
    }

    func reader(_ reader: NMEAReader, didFindSpeed bitsPerSecond: Int) {
        printError("receiving at \(bitsPerSecond) bit/s")
    }

    func reader(_ reader: NMEAReader, didFailWith error: GPSError) { finish(.failure(error)) }

    func readerDidFinish(_ reader: NMEAReader) { finish(.success) }

    /// Records the outcome, the first time.
    func finish(_ result: Outcome) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { done.signal() }
    }

    /// Waits for the outcome.
    func wait() -> Outcome {
        done.wait()
        return outcome.withLock { $0 } ?? .success
    }

    /// Closes the document (a GPX track) and writes what is buffered; call once, after the
    /// reader has stopped.
    func flush() {
        panel?.close(to: output)
        if let footer = format.footer { output.write(footer) }
        output.flush()
    }
}

/// Runs `stop` on SIGINT or SIGTERM instead of dying, so that devices are put back in order
/// and documents closed; a second signal exits at once (status 130). Cancel the sources to
/// stop listening.
func stopOnSignals(_ stop: @escaping @Sendable () -> Void) -> [DispatchSourceSignal] {
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let received = Protected(0)
    return [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            let count = received.withLock { count in
                count += 1
                return count
            }
            if count > 1 { _exit(130) }
            stop()
        }
        source.resume()
        return source
    }
}
