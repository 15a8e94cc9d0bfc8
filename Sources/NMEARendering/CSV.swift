import NMEA

/// Fixes as comma-separated values: a header line, then one row per fix. An empty cell is a
/// value the receiver did not give. Units are in the column names. `quality` is GGA's fix
/// quality by name (`gps`, `dgps`, `rtk-fixed`, `rtk-float`...), or for a UBX receiver what its
/// carrier solution says; `dgps_age_s` is the age of the corrections the receiver used.
public enum CSV {
    /// The header line.
    public static let header =
        "time,latitude_deg,longitude_deg,altitude_msl_m,altitude_hae_m,speed_mps,track_deg,climb_mps,mode,quality,satellites_used,hdop,vdop,pdop,dgps_age_s\n"

    /// The row for `fix`.
    public static func row(_ fix: Fix) -> String {
        func cell(_ value: Double?, _ decimals: Int) -> String { value.map { fixedPoint($0, decimals: decimals) } ?? "" }
        var cells: [String] = []
        cells.reserveCapacity(15)
        cells.append(fix.time.map { "\($0)" } ?? "")
        cells.append(cell(fix.latitude, 9))
        cells.append(cell(fix.longitude, 9))
        cells.append(cell(fix.altitudeMSL, 3))
        cells.append(cell(fix.altitudeHAE, 3))
        cells.append(cell(fix.speed, 3))
        cells.append(cell(fix.track, 2))
        cells.append(cell(fix.climb, 3))
        cells.append(fix.mode == .unknown ? "" : fix.mode.description)
        cells.append(fix.solutionLabel ?? (fix.quality == .gps || (fix.ubxStatus?.gpsdStatus == 1) ? "gps" : ""))
        cells.append(fix.satellitesUsed.map(String.init) ?? "")
        cells.append(cell(fix.hdop, 2))
        cells.append(cell(fix.vdop, 2))
        cells.append(cell(fix.pdop, 2))
        cells.append(cell(fix.differentialAge, 1))
        return cells.joined(separator: ",") + "\n"
    }

    /// `text` (a name from outside) as one cell: its control characters escaped
    /// (``printable(_:)``), quoted when it holds a comma or a quote.
    public static func cell(_ text: String) -> String {
        let text = printable(text)
        guard text.contains(where: { $0 == "," || $0 == "\"" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
