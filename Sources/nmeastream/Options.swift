import ArgumentParser

/// `--format` and `--stats`, for every command that prints fixes.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text (a line per fix), json (gpsd TPV and SKY lines), nmea (valid sentences), csv, gpx.")
    var format: OutputFormat = .text

    @Flag(help: "At the end, print counts of sentences and rejects by reason (and, for a live source, the fix rate) to standard error; with --count, of what was read up to the last fix printed.")
    var stats = false
}

/// `--count`, for the commands that read a live source.
struct CountOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Stop after this many fixes.")
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }
}
