import NMEAStream

/// Writes fixes, satellite views and sentences in one ``OutputFormat``: the one place each
/// format is chosen, for every command. (A class: it owns the JSON buffer it reuses, and a
/// closure that captures it then checks no exclusive access per event.)
final class FixRenderer {
    let format: OutputFormat
    private var writer = JSONWriter()
    /// The epochs, for the json format's `SKY` then `TPV`.
    private var epochs = EpochGatherer()

    init(format: OutputFormat) { self.format = format }

    /// Writes a fix (nothing for the `nmea` format, and for a GPX point with no position). In
    /// the `json` format it is its epoch, as gpsd sends it: the epoch's `SKY` (its views with
    /// the fix's dilutions, or the dilutions alone for an epoch with no GSV), then the `TPV`.
    /// With `printed` false (a fix the command does not print), only that `SKY`.
    func write(_ fix: Fix, to output: BufferedOutput, printed: Bool = true) {
        switch format {
        case .json:
            var epoch = epochs.add(fix)
            if !printed { epoch.fix = nil }
            write(epoch, to: output)
        case _ where !printed:
            break
        case .text:
            output.write(FixText.line(fix) + "\n")
        case .csv:
            output.write(CSV.row(fix))
        case .gpx:
            if let point = GPX.point(fix) { output.write(point) }
        case .nmea:
            break
        }
    }

    /// Takes a satellite view (the `json` format's `SKY` lines; nothing in the others): a
    /// `SKY` is written when a view starts another epoch's sky, for a receiver that reports
    /// views without fixes.
    func write(_ view: SatelliteView, to output: BufferedOutput) {
        guard format == .json, let epoch = epochs.add(view) else { return }
        write(epoch, to: output)
    }

    /// At the end of the input: the views no fix completed, as a last `SKY`.
    func finish(to output: BufferedOutput) {
        guard format == .json, let epoch = epochs.finish() else { return }
        write(epoch, to: output)
    }

    private func write(_ epoch: Epoch, to output: BufferedOutput) {
        GPSDJSON.write(epoch, reusing: &writer) { _, report in report.withBytes { output.writeLine($0) } }
    }

    /// Writes a sentence as it came, with CR LF (the `nmea` format; nothing in the others).
    func write(_ sentence: RawSentence, to output: BufferedOutput) {
        guard format == .nmea else { return }
        sentence.withUnsafeBytes { output.write($0) }
        ("\r\n" as StaticString).withUTF8Buffer { output.write($0) }
    }
}
