import Foundation
import NMEAStream

/// A made-up receiver's output: a vehicle going round a circle at constant speed, one epoch
/// (GGA, GSA, GSV, RMC, VTG, GPS constellation) per second, from a given start time.
struct SyntheticTrack: Sendable {
    /// The circle's centre: latitude and longitude in degrees.
    var center: (latitude: Double, longitude: Double)
    /// The circle's radius, metres.
    var radius: Double
    /// Speed along the circle, metres per second.
    var speed: Double
    /// Altitude above mean sea level, metres.
    var altitude: Double
    /// The time of the first epoch (whole seconds are used).
    var start: Date

    /// Creates a track; the defaults circle a park in Delft at walking-to-cycling speed.
    init(center: (latitude: Double, longitude: Double) = (52.0116, 4.3571), radius: Double = 200,
                speed: Double = 5, altitude: Double = 2, start: Date = Date()) {
        self.center = center
        self.radius = radius
        self.speed = speed
        self.altitude = altitude
        self.start = start
    }

    /// The sentences of epoch `index` (0 is the first), with checksums and CR LF endings.
    func epoch(_ index: Int) -> String {
        let time = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down) + Double(index))
        let angle = speed * Double(index) / radius
        let metresPerDegree = 111_320.0
        let latitude = center.latitude + radius * sin(angle) / metresPerDegree
        let longitude = center.longitude + radius * cos(angle) / (metresPerDegree * cos(center.latitude * .pi / 180))
        // Heading along the circle (counter-clockwise), degrees from north.
        var course = (atan2(-sin(angle), cos(angle)) * 180 / .pi)
        if course < 0 { course += 360 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
        let hhmmss = String(format: "%02d%02d%02d.00", parts.hour!, parts.minute!, parts.second!)
        let ddmmyy = String(format: "%02d%02d%02d", parts.day!, parts.month!, parts.year! % 100)
        let knots = speed / 0.514444
        let satellites = [(5, 45, 120, 40), (13, 60, 200, 42), (15, 30, 300, 38), (18, 20, 50, 35), (23, 10, 10, 30), (29, 5, 100, 25)]
        var sentences = [
            "GPGGA,\(hhmmss),\(Self.angle(latitude, 2)),\(latitude < 0 ? "S" : "N"),\(Self.angle(longitude, 3)),\(longitude < 0 ? "W" : "E"),1,06,0.9,\(String(format: "%.1f", altitude)),M,47.0,M,,",
            "GPGSA,A,3,05,13,15,18,23,29,,,,,,,1.6,0.9,1.3",
        ]
        for part in 0..<2 {
            var body = "GPGSV,2,\(part + 1),06"
            for (id, elevation, azimuth, snr) in satellites[(part * 4)..<min(satellites.count, part * 4 + 4)] {
                body += String(format: ",%02d,%02d,%03d,%02d", id, elevation, azimuth, snr)
            }
            sentences.append(body)
        }
        sentences.append("GPRMC,\(hhmmss),A,\(Self.angle(latitude, 2)),\(latitude < 0 ? "S" : "N"),\(Self.angle(longitude, 3)),\(longitude < 0 ? "W" : "E"),\(String(format: "%.2f", knots)),\(String(format: "%.1f", course)),\(ddmmyy),,,A")
        sentences.append("GPVTG,\(String(format: "%.1f", course)),T,,M,\(String(format: "%.2f", knots)),N,\(String(format: "%.2f", speed * 3.6)),K,A")
        return sentences.map { body in
            let sum = body.utf8.reduce(UInt8(0), ^)
            return "$\(body)*\(String(format: "%02X", sum))\r\n"
        }.joined()
    }

    /// `dddmm.mmmmmm` with `degreeDigits` digits of degrees.
    static func angle(_ value: Double, _ degreeDigits: Int) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        return String(format: "%0\(degreeDigits)d%09.6f", degrees, minutes)
    }
}
