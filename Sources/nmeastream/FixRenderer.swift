import NMEAStream

/// Writes epochs and sentences in one ``OutputFormat``: the one place each
/// format is chosen, for every command. (A class: it owns the JSON buffer it reuses, and a
/// closure that captures it then checks no exclusive access per event.)
final class FixRenderer {
    let format: OutputFormat
    private var writer = JSONWriter()

    init(format: OutputFormat) { self.format = format }

    /// Writes an epoch: in the `json` format as gpsd sends it, its `SKY` (its views with the
    /// fix's dilutions, or the dilutions alone for an epoch with no GSV) then its `TPV`; in the
    /// others its fix (nothing for the `nmea` format, for a GPX point with no position, or for
    /// a sky with no fix). With `printed` false (a fix the command does not print), only that
    /// `SKY`.
    func write(_ epoch: Epoch, to output: BufferedOutput, printed: Bool = true) {
        guard format != .json else {
            var epoch = epoch
            if !printed { epoch.fix = nil }
            GPSDJSON.write(epoch, reusing: &writer) { _, report in report.withBytes { output.writeLine($0) } }
            return
        }
        guard printed, let fix = epoch.fix else { return }
        switch format {
        case .text:
            output.write(FixText.line(fix) + "\n")
        case .csv:
            output.write(CSV.row(fix))
        case .gpx:
            if let point = GPX.point(fix) { output.write(point) }
        case .nmea, .json:
            break
        }
    }

    /// Writes a sentence as it came, with CR LF (the `nmea` format; nothing in the others).
    func write(_ sentence: RawSentence, to output: BufferedOutput) {
        guard format == .nmea else { return }
        sentence.withUnsafeBytes { output.write($0) }
        ("\r\n" as StaticString).withUTF8Buffer { output.write($0) }
    }
}
