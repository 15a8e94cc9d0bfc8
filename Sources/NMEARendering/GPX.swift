import NMEA

/// Fixes as a GPX 1.1 track: one `trkpt` per fix with a position, in a document that is
/// complete once ``footer`` is written.
///
/// Per point: `lat`, `lon` (degrees, 9 decimals), `ele` (metres above mean sea level),
/// `time` (UTC), `geoidheight`, `fix` (`none`, `2d`, `3d`, `dgps`, `pps`), `sat`, `hdop`,
/// `vdop`, `pdop`, `ageofdgpsdata`, `dgpsid`, in the order the GPX schema requires. Fields the
/// receiver did not give are left out.
public enum GPX {
    /// The document's start, up to the first point.
    public static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="nmeastream" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
        <trk>
        <name>nmeastream</name>
        <trkseg>

        """

    /// The document's end.
    public static let footer = "</trkseg>\n</trk>\n</gpx>\n"

    /// The `trkpt` element for `fix` (one line), or `nil` for a fix with no position; `name`
    /// (a vehicle's, say) goes in the point's `name`.
    public static func point(_ fix: Fix, name: String? = nil) -> String? {
        guard let latitude = fix.latitude, let longitude = fix.longitude, fix.mode != .noFix else { return nil }
        var text = "<trkpt lat=\"\(fixedPoint(latitude, decimals: 9))\" lon=\"\(fixedPoint(longitude, decimals: 9))\">"
        if let altitude = fix.altitudeMSL { text += "<ele>\(fixedPoint(altitude, decimals: 3))</ele>" }
        if let time = fix.time { text += "<time>\(time)</time>" }
        if let separation = fix.geoidSeparation { text += "<geoidheight>\(fixedPoint(separation, decimals: 3))</geoidheight>" }
        if let name { text += "<name>\(escaped(name))</name>" }
        if let kind = fixKind(fix) { text += "<fix>\(kind)</fix>" }
        if let satellites = fix.satellitesUsed { text += "<sat>\(satellites)</sat>" }
        if let hdop = fix.hdop { text += "<hdop>\(fixedPoint(hdop, decimals: 2))</hdop>" }
        if let vdop = fix.vdop { text += "<vdop>\(fixedPoint(vdop, decimals: 2))</vdop>" }
        if let pdop = fix.pdop { text += "<pdop>\(fixedPoint(pdop, decimals: 2))</pdop>" }
        if let age = fix.differentialAge { text += "<ageofdgpsdata>\(fixedPoint(age, decimals: 1))</ageofdgpsdata>" }
        if let station = fix.differentialStation, (0...1023).contains(station), fix.quality == .dgps {
            text += "<dgpsid>\(station)</dgpsid>"
        }
        return text + "</trkpt>\n"
    }

    /// `text` with XML's five special characters escaped, and the characters XML cannot hold
    /// at all (controls) written as ``printable(_:)`` writes them.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in printable(text) {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    /// GPX's `fix` value: the differential kinds first, then the dimension.
    static func fixKind(_ fix: Fix) -> String? {
        switch fix.quality {
        case .dgps?: return "dgps"
        case .pps?: return "pps"
        default: break
        }
        switch fix.mode {
        case .threeD: return "3d"
        case .twoD: return "2d"
        case .noFix: return "none"
        case .unknown: return nil
        }
    }
}
