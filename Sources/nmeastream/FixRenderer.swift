import NMEAStream

/// Writes fixes, satellite views and sentences in one ``OutputFormat``: the one place each
/// format is chosen, for every command. (A class: it owns the JSON buffer it reuses, and a
/// closure that captures it then checks no exclusive access per event.)
final class FixRenderer {
    let format: OutputFormat
    private var writer = JSONWriter()

    init(format: OutputFormat) { self.format = format }

    /// Writes a fix (nothing for the `nmea` format, and for a GPX point with no position).
    func write(_ fix: Fix, to output: BufferedOutput) {
        switch format {
        case .json:
            writer.reset()
            GPSDJSON.writeTPV(fix, to: &writer)
            writer.withBytes { output.writeLine($0) }
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

    /// Writes a satellite view (a SKY line in the `json` format; nothing in the others).
    func write(_ view: SatelliteView, to output: BufferedOutput) {
        guard format == .json else { return }
        writer.reset()
        GPSDJSON.writeSKY(view, to: &writer)
        writer.withBytes { output.writeLine($0) }
    }

    /// Writes a sentence as it came, with CR LF (the `nmea` format; nothing in the others).
    func write(_ sentence: RawSentence, to output: BufferedOutput) {
        guard format == .nmea else { return }
        sentence.withUnsafeBytes { output.write($0) }
        ("\r\n" as StaticString).withUTF8Buffer { output.write($0) }
    }
}
