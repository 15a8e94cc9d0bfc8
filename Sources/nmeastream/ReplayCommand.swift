import ArgumentParser
import NMEAStream
import Platform

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Decode a recorded NMEA log as fast as it can be read.",
        discussion: """
            Reads the whole log, whatever it contains: sentences that fail their checksum, binary \
            protocol frames and noise are skipped and counted, never fatal. A log with no NMEA \
            at all is said for what it is, with exit code 65.

            Examples:
              nmeastream replay drive.nmea
              nmeastream replay --format json drive.nmea > drive.jsonl
              cat drive.nmea | nmeastream replay --stats -
            """
    )

    @Argument(help: "The log file, or - for standard input.")
    var file: String

    @OptionGroup var output: OutputOptions

    @Option(parsing: .unconditional, help: "Replay at the pace of the log's own timestamps, this many times faster (1 is real time), as a live receiver would send it.")
    var speed: Double?

    @Flag(help: "Check each fix's integrity (position jumps, time steps, impossible altitudes or speeds, signs of spoofing or jamming): each event on standard error, each fix flagged in the output (see Documentation/several-receivers.md: Integrity checks).")
    var integrity = false

    @OptionGroup(title: "Integrity checks") var integrityLimits: IntegrityLimitOptions

    @Flag(help: "With --speed: wait out pauses of more than 5 s in the log's times (up to a minute) instead of shortening them to one cycle.")
    var keepGaps = false

    func validate() throws {
        if let speed, !(speed > 0) { throw ValidationError("--speed must be above 0") }
        if keepGaps, speed == nil { throw ValidationError("--keep-gaps needs --speed: as fast as possible, there is nothing to wait") }
        if !integrity, !integrityLimits.limits.isEmpty { throw ValidationError("--integrity-limit goes with --integrity") }
    }

    func run() throws {
        if let speed {
            // Paced: through the reader, as a live source.
            return try readFixes(from: .log(path: file, pace: .recorded(speed: speed, keepingGaps: keepGaps)), options: self.output, count: nil,
                                 integrity: integrity ? integrityLimits.thresholds : nil)
        }
        let output = BufferedOutput()
        let decoder = NMEADecoder()
        let format = self.output.format
        let renderer = FixRenderer(format: format)
        var sawFix = false
        var check = integrity ? IntegrityCheck(thresholds: integrityLimits.thresholds, source: file) : nil
        let handle: (NMEADecoder.Event) -> Void = { event in
            switch event {
            case .epoch(var epoch):
                if check != nil { for event in check!.check(&epoch) { sayIntegrity(event) } }
                if !sawFix { sawFix = epoch.withFix { $0.mode >= .twoD } ?? false }
                renderer.write(epoch, to: output)
            case .sentence(let raw): renderer.write(raw, to: output)
            case .ubx, .rejected: break
            }
        }
        if let header = format.header { output.write(header) }
        let progress = ProgressBar(path: file)
        defer { progress?.finish() }
        // A signal (Ctrl-C, a terminal hung up, kill) ends the replay where it is, and the
        // document is closed.
        let stop = Protected(false)
        let signals = stopOnSignals { stop.withLock { $0 = true } }
        defer { signals.forEach { $0.cancel() } }
        do {
            try RecordedLog(path: file).read { chunk in
                // A signal that came while the read waited: this chunk is after the stop.
                guard !stop.withLock({ $0 }) else { return .stop }
                decoder.feed(chunk, handle)
                progress?.advance(chunk.count)
                return output.failed || stop.withLock({ $0 }) ? .stop : .continue
            }
        } catch {
            if let footer = format.footer { output.write(footer) }
            output.flush()
            printError(error.description)
            throw ExitCode.noInput
        }
        decoder.finish(handle)
        if let footer = format.footer { output.write(footer) }
        output.flush()
        if let failure = output.failure { throw outputFailed(failure, format: format) }
        if self.output.stats { StatisticsReport.print(decoder.statistics) }
        // Stopped early by a signal, the input was not all seen: nothing to say of it.
        if !stop.withLock({ $0 }), let diagnosis = InputDiagnosis(decoder.statistics, sawFix: sawFix) {
            printError(diagnosis.message(source: file == "-" ? "standard input" : file))
            if let code = diagnosis.replayExitCode { throw code }
        }
    }
}
