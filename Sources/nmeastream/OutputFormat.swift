import ArgumentParser

/// How fixes are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One readable line per fix.
    case text
    /// gpsd JSON: a TPV line per fix and a SKY line per satellite view.
    case json
    /// The valid sentences, unchanged, one per line.
    case nmea
}
