import Dispatch
import NMEAStream
import TimeService
import Platform

/// Prints what a reader delivers, and tells the command when to stop.
final class FixPrinter: NMEAReaderDelegate, @unchecked Sendable {
    enum Outcome {
        case success
        case failure(GPSError)
        case timedOut(Double)
        /// The output could not be written.
        case outputFailed(Errno)
    }

    private let format: OutputFormat
    private let limit: Int?
    // Touched on the reader's queue only, until `flush`.
    private let output = BufferedOutput()
    private let renderer: FixRenderer
    private var fixes = 0
    /// How late the receiver's reports arrived (for `--stats`); read after the reader stopped.
    private(set) var latency = ReportLatency()
    /// Set once `--count` fixes were printed: what the reader delivers before it stops is dropped.
    private var isDone = false
    /// The reader's statistics when the `--count`th fix was printed, and the uptime then
    /// (nanoseconds), so that `--stats` counts what was printed, not what came before the
    /// reader stopped; read after the reader stopped.
    private(set) var statisticsAtLimit: (statistics: NMEAStatistics, uptime: UInt64)?
    private let outcome = Protected<Outcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    private let minimumMode: FixMode
    private let printed = Protected(false)
    /// The live panel, for the text format on a terminal.
    private let panel: LivePanel?
    /// The integrity checks, when asked for (on the reader's queue only).
    private var integrity: IntegrityCheck?
    /// How many events they told.
    private(set) var integrityEvents = 0

    /// Whether a fix has been printed (read from any thread).
    var hasPrinted: Bool { printed.withLock { $0 } }

    init(format: OutputFormat, limit: Int?, minimumMode: FixMode = .unknown, panelTitle: String = "nmeastream",
         integrity: IntegrityCheck? = nil) {
        self.integrity = integrity
        self.format = format
        self.limit = limit
        self.minimumMode = minimumMode
        renderer = FixRenderer(format: format)
        panel = format == .text && LivePanel.isWanted ? LivePanel(title: panelTitle + "   (Ctrl-C to stop)") : nil
        if let header = format.header {
            output.write(header)
            output.flush()
        }
    }

    func reader(_ reader: NMEAReader, didComplete epoch: Epoch) {
        var epoch = epoch
        if integrity != nil, !isDone {
            for event in integrity!.check(&epoch) {
                integrityEvents += 1
                sayIntegrity(event)
            }
        }
        if let panel { for view in epoch.views { panel.update(view) } }
        guard let fix = epoch.fix else {
            // The views of a receiver that reports them without fixes.
            if !isDone { renderer.write(epoch, to: output) }
            return
        }
        guard !isDone else { return }
        latency.record(fix)
        guard fix.mode >= minimumMode else { return renderer.write(epoch, to: output, printed: false) }
        printed.withLock { $0 = true }
        if let panel {
            panel.update(fix, to: output)
        } else {
            renderer.write(epoch, to: output)
        }
        // A live receiver: each fix is shown as it comes.
        output.flush()
        if let failure = output.failure {
            isDone = true
            return finish(.outputFailed(failure))
        }
        fixes += 1
        if let limit, fixes >= limit {
            isDone = true
            statisticsAtLimit = (reader.statistics, DispatchTime.now().uptimeNanoseconds)
            finish(.success)
        }
    }

    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) {
        guard format == .nmea, !isDone else { return }
        renderer.write(sentence, to: output)
        output.flush()
        if let failure = output.failure {
            isDone = true
            finish(.outputFailed(failure))
        }
    }

    func reader(_ reader: NMEAReader, didChoose port: SerialPortInfo) {
        let name = port.catalogueEntry?.name ?? [port.vendor, port.product].compactMap { $0 }.joined(separator: " ")
        printError("reading \(port.preferredPath)\(name.isEmpty ? "" : " (\(name))")")
    }

    func reader(_ reader: NMEAReader, didLoseDevice path: String) {
        output.flush()
        printError("\(path) went away; waiting for a receiver")
    }

    func reader(_ reader: NMEAReader, didConnect endpoint: String) {
        // Datagrams are received, not connected to.
        printError(endpoint.hasPrefix("udp://") ? "listening on \(endpoint)" : "connected to \(endpoint)")
    }

    func reader(_ reader: NMEAReader, didLoseConnection interruption: NetworkInterruption) {
        output.flush()
        printError(interruption.description)
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
    /// Why the output could not be written, if it could not.
    func flush() -> Errno? {
        panel?.close(to: output)
        if let footer = format.footer { output.write(footer) }
        output.flush()
        return output.failure
    }
}
