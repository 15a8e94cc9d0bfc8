import ArgumentParser
import Dispatch
import NMEAStream

/// Reads `source` and prints its fixes in `format` until `count` fixes, its end, or Ctrl-C;
/// a failure is one line on standard error and an exit code.
func readFixes(from source: GPSSource, options: OutputOptions, count: Int?,
               timeout: Double? = nil, minimumMode: FixMode = .unknown, title: String? = nil,
               corrections: CorrectionsFeed? = nil, integrity: IntegrityThresholds? = nil) throws {
    let printer = FixPrinter(format: options.format, limit: count, minimumMode: minimumMode,
                             panelTitle: title ?? "nmeastream  \(source)",
                             integrity: integrity.map { IntegrityCheck(thresholds: $0, source: source.description) })
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
    let attachment = corrections?.attach(reader)
    reader.start()
    let outcome = printer.wait()
    attachment?.dispose()
    reader.stop()
    if let corrections {
        corrections.waitUntilClosed()
        if let summary = CorrectionsOptions.summary(corrections.status) { printError(summary) }
    }
    signals.forEach { $0.cancel() }
    let outputFailure = printer.flush()
    if options.stats {
        let (statistics, end) = printer.statisticsAtLimit ?? (reader.statistics, DispatchTime.now().uptimeNanoseconds)
        StatisticsReport.print(statistics, seconds: Double(end - start) / 1e9, latency: printer.latency.summary)
    }
    switch outcome {
    case .success:
        if let outputFailure { throw outputFailed(outputFailure, format: options.format) }
        return
    case .outputFailed(let error):
        throw outputFailed(error, format: options.format)
    case .failure(let error):
        printError(error.message)
        throw exitCode(for: error)
    case .timedOut(let seconds):
        // A port that sent nothing, or no NMEA, is not an antenna problem.
        switch InputDiagnosis(reader.statistics, sawFix: false) {
        case let diagnosis? where diagnosis.replayExitCode != nil:
            printError(diagnosis.message(source: "\(source)", seconds: seconds))
        default:
            printError("no fix\(minimumMode == .unknown ? "" : " of \(minimumMode) or better") after \(fixedPoint(seconds, decimals: 1)) s; "
                       + "check the antenna's view of the sky (a cold start can take a minute or more)")
        }
        throw ExitCode.noFixInTime
    }
}

/// The exit code for a source that failed.
func exitCode(for error: GPSError) -> ExitCode {
    switch error {
    case .deviceLost, .readError: .ioError
    default: .unavailable
    }
}
