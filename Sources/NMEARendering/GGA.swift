import NMEA

/// A fix as an NMEA 0183 GGA sentence: what an NTRIP client sends a network caster (a virtual
/// reference station makes its corrections for the position it is told), and what a program
/// that wants one sentence of position reads.
public enum GGA {
    /// `fix` as `$GPGGA,...*hh` with CR LF: UTC time to the hundredth, position to 1e-7
    /// minute (about 0.2 mm), the fix quality (the receiver's own, or 1 for a 2D or 3D fix and
    /// 0 otherwise), satellites, HDOP, altitude above sea level and geoid separation in
    /// metres, and the corrections' age and station when there are some. `nil` when the fix has
    /// no position.
    public static func sentence(for fix: Fix) -> String? {
        guard let latitude = fix.latitude, let longitude = fix.longitude, latitude.isFinite, longitude.isFinite else { return nil }
        var fields = ["GPGGA"]
        if let time = fix.timeOfDay ?? fix.time?.timeOfDay {
            let hundredths = time.nanosecond / 10_000_000
            fields.append(Self.twoDigits(time.hour) + Self.twoDigits(time.minute) + Self.twoDigits(time.second) + "." + Self.twoDigits(hundredths))
        } else {
            fields.append("")
        }
        fields += Self.coordinate(latitude, degreeDigits: 2, positive: "N", negative: "S")
        fields += Self.coordinate(longitude, degreeDigits: 3, positive: "E", negative: "W")
        let quality = fix.quality?.rawValue ?? (fix.mode == .twoD || fix.mode == .threeD ? 1 : 0)
        fields.append(String(quality))
        fields.append(fix.satellitesUsed.map { Self.twoDigits(min(max($0, 0), 99)) } ?? "")
        fields.append(fix.hdop.map { fixedPoint($0, decimals: 1) } ?? "")
        fields.append(fix.altitudeMSL.map { fixedPoint($0, decimals: 3) } ?? "")
        fields.append("M")
        fields.append(fix.geoidSeparation.map { fixedPoint($0, decimals: 3) } ?? "")
        fields.append("M")
        fields.append(fix.differentialAge.map { fixedPoint($0, decimals: 1) } ?? "")
        fields.append(fix.differentialStation.map { String($0) } ?? "")
        let body = fields.joined(separator: ",")
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = Array("0123456789ABCDEF")
        return "$" + body + "*" + String(hex[Int(checksum >> 4)]) + String(hex[Int(checksum & 0x0F)]) + "\r\n"
    }

    /// Degrees as NMEA's `dddmm.mmmmmmm` and its hemisphere.
    private static func coordinate(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> [String] {
        let magnitude = abs(value)
        // In units of 1e-7 minute, rounded once: no 60-minute carry is left to the formatter.
        let units = Int64((magnitude * 60 * 10_000_000).rounded())
        let degrees = units / (60 * 10_000_000)
        let minuteUnits = units % (60 * 10_000_000)
        var text = String(degrees)
        while text.count < degreeDigits { text = "0" + text }
        var minutes = String(minuteUnits / 10_000_000)
        if minutes.count < 2 { minutes = "0" + minutes }
        var fraction = String(minuteUnits % 10_000_000)
        while fraction.count < 7 { fraction = "0" + fraction }
        return [text + minutes + "." + fraction, value < 0 ? negative : positive]
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
