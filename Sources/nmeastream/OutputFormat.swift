import ArgumentParser
import NMEAStream

/// How fixes are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One readable line per fix.
    case text
    /// gpsd JSON: a TPV line per fix and a SKY line per satellite view.
    case json
    /// The valid sentences, unchanged, one per line.
    case nmea
    /// A header, then a row per fix.
    case csv
    /// A GPX 1.1 track, always a complete document.
    case gpx

    /// What comes before the first fix.
    var header: String? {
        switch self {
        case .csv: CSV.header
        case .gpx: GPX.header
        default: nil
        }
    }

    /// What closes the document.
    var footer: String? { self == .gpx ? GPX.footer : nil }
}
