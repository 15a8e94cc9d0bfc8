import ArgumentParser
import NMEAStream

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Decode a recorded NMEA log as fast as it can be read.",
        discussion: """
            Reads the whole log, whatever it contains: sentences that fail their checksum, binary \
            protocol frames and noise are skipped and counted, never fatal.

            Examples:
              nmeastream replay drive.nmea
              nmeastream replay --format json drive.nmea > drive.jsonl
              cat drive.nmea | nmeastream replay --stats -
            """
    )

    @Argument(help: "The log file, or - for standard input.")
    var file: String

    @Option(help: "Output format: text (a line per fix), json (gpsd TPV and SKY lines), nmea (valid sentences), csv, gpx.")
    var format: OutputFormat = .text

    @Flag(help: "Print counts of sentences and rejects by reason to standard error at the end.")
    var stats = false

    @Option(help: "Replay at the pace of the log's own timestamps, this many times faster (1 is real time), as a live receiver would send it.")
    var speed: Double?

    func validate() throws {
        if let speed, !(speed > 0) { throw ValidationError("--speed must be above 0") }
    }

    func run() throws {
        if let speed {
            // Paced: through the reader, as a live source.
            return try readFixes(from: .log(path: file, pace: .recorded(speed: speed)), format: format, count: nil, stats: stats)
        }
        let output = BufferedOutput()
        let decoder = NMEADecoder()
        var writer = JSONWriter()
        let format = self.format
        let crlf: [UInt8] = [0x0D, 0x0A]
        let handle: (NMEADecoder.Event) -> Void = { event in
            switch (format, event) {
            case (.json, .fix(let fix)):
                writer.reset()
                GPSDJSON.writeTPV(fix, to: &writer)
                writer.withBytes { output.writeLine($0) }
            case (.json, .satellites(let view)):
                writer.reset()
                GPSDJSON.writeSKY(view, to: &writer)
                writer.withBytes { output.writeLine($0) }
            case (.text, .fix(let fix)):
                output.write(FixText.line(fix) + "\n")
            case (.csv, .fix(let fix)):
                output.write(CSV.row(fix))
            case (.gpx, .fix(let fix)):
                if let point = GPX.point(fix) { output.write(point) }
            case (.nmea, .sentence(let raw)):
                raw.withUnsafeBytes { output.write($0) }
                crlf.withUnsafeBufferPointer { output.write($0) }
            default:
                break
            }
        }
        if let header = format.header { output.write(header) }
        let progress = ProgressBar(path: file)
        defer { progress?.finish() }
        do {
            try RecordedLog(path: file).read { chunk in
                decoder.feed(chunk, handle)
                progress?.advance(chunk.count)
            }
        } catch {
            if let footer = format.footer { output.write(footer) }
            output.flush()
            printError(error.description)
            throw ExitCode(66)
        }
        decoder.finish(handle)
        if let footer = format.footer { output.write(footer) }
        output.flush()
        if stats { StatisticsReport.print(decoder.statistics) }
    }
}
