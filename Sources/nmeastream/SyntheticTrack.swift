import CPlatform
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
    /// The time of the first epoch, seconds since 1970 (POSIX time).
    var start: Int64

    /// Creates a track; the defaults circle a park in Delft at walking-to-cycling speed.
    init(center: (latitude: Double, longitude: Double) = (52.0116, 4.3571), radius: Double = 200,
                speed: Double = 5, altitude: Double = 2, start: Int64 = UTCTime.now.posixTime.seconds) {
        self.center = center
        self.radius = radius
        self.speed = speed
        self.altitude = altitude
        self.start = start
    }

    /// The sentences of epoch `index` (0 is the first), with checksums and CR LF endings.
    func epoch(_ index: Int) -> String {
        let time = UTCTime(posixSeconds: start + Int64(index), nanoseconds: 0)
        let angle = speed * Double(index) / radius
        let metresPerDegree = 111_320.0
        let latitude = center.latitude + radius * sin(angle) / metresPerDegree
        let longitude = center.longitude + radius * cos(angle) / (metresPerDegree * cos(center.latitude * .pi / 180))
        // Heading along the circle (counter-clockwise), degrees from north.
        var course = (atan2(-sin(angle), cos(angle)) * 180 / .pi)
        if course < 0 { course += 360 }
        let clock = time.timeOfDay.nanosecondsSinceMidnight / 1_000_000_000
        let hhmmss = zeroPadded(clock / 3600, width: 2) + zeroPadded(clock / 60 % 60, width: 2) + zeroPadded(clock % 60, width: 2) + ".00"
        let ddmmyy = zeroPadded(time.date.day, width: 2) + zeroPadded(time.date.month, width: 2) + zeroPadded(time.date.year % 100, width: 2)
        let knots = speed / 0.514444
        let satellites = [(5, 45, 120, 40), (13, 60, 200, 42), (15, 30, 300, 38), (18, 20, 50, 35), (23, 10, 10, 30), (29, 5, 100, 25)]
        var sentences = [
            "GPGGA,\(hhmmss),\(Self.angle(latitude, 2)),\(latitude < 0 ? "S" : "N"),\(Self.angle(longitude, 3)),\(longitude < 0 ? "W" : "E"),1,06,0.9,\(fixedPoint(altitude, decimals: 1)),M,47.0,M,,",
            "GPGSA,A,3,05,13,15,18,23,29,,,,,,,1.6,0.9,1.3",
        ]
        for part in 0..<2 {
            var body = "GPGSV,2,\(part + 1),06"
            for (id, elevation, azimuth, snr) in satellites[(part * 4)..<min(satellites.count, part * 4 + 4)] {
                body += "," + zeroPadded(id, width: 2) + "," + zeroPadded(elevation, width: 2) + "," + zeroPadded(azimuth, width: 3) + "," + zeroPadded(snr, width: 2)
            }
            sentences.append(body)
        }
        sentences.append("GPRMC,\(hhmmss),A,\(Self.angle(latitude, 2)),\(latitude < 0 ? "S" : "N"),\(Self.angle(longitude, 3)),\(longitude < 0 ? "W" : "E"),\(fixedPoint(knots, decimals: 2)),\(fixedPoint(course, decimals: 1)),\(ddmmyy),,,A")
        sentences.append("GPVTG,\(fixedPoint(course, decimals: 1)),T,,M,\(fixedPoint(knots, decimals: 2)),N,\(fixedPoint(speed * 3.6, decimals: 2)),K,A")
        return sentences.map { body in
            let sum = body.utf8.reduce(UInt8(0), ^)
            return "$\(body)*\(zeroPadded(sum, width: 2, radix: 16, uppercase: true))\r\n"
        }.joined()
    }

    /// `dddmm.mmmmmm` with `degreeDigits` digits of degrees.
    static func angle(_ value: Double, _ degreeDigits: Int) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        let text = fixedPoint(minutes, decimals: 6)
        return zeroPadded(degrees, width: degreeDigits) + (text.count < 9 ? "0" : "") + text
    }
}
