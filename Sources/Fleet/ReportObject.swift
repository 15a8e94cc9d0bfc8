import NMEA

/// The members of a gpsd JSON report that a subscriber reads: its class, device and time,
/// and a `TPV`'s fix. A member of the wrong type reads as absent, as gpsd's own clients
/// read it, so one odd member does not cost the whole report.
struct ReportObject: Decodable {
    var reportClass: String?
    var device: String?
    var time: String?
    /// A `TPV`'s fix: mode, time, position, altitude, speed, track and climb.
    var fix = Fix()

    private enum Key: String, CodingKey {
        case reportClass = "class", device, time, mode, lat, lon, altMSL, geoidSep, speed, track, climb
    }

    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Key.self)
        func read<T: Decodable>(_ key: Key, as type: T.Type = T.self) -> T? {
            (try? members.decodeIfPresent(T.self, forKey: key)) ?? nil
        }
        reportClass = read(.reportClass)
        device = read(.device)
        time = read(.time)
        fix.mode = read(.mode, as: Int.self).flatMap(FixMode.init(rawValue:)) ?? .unknown
        fix.time = time.flatMap(Self.utcTime)
        fix.latitude = read(.lat)
        fix.longitude = read(.lon)
        fix.altitudeMSL = read(.altMSL)
        fix.geoidSeparation = read(.geoidSep)
        fix.speed = read(.speed)
        fix.track = read(.track)
        fix.climb = read(.climb)
    }

    /// `2024-06-05T12:30:04.000Z` as a UTC time.
    static func utcTime(_ text: String) -> UTCTime? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) })
        guard parts.count >= 6, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              let hour = Int(parts[3]), let minute = Int(parts[4]), let second = Double(parts[5]),
              let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        let nanoseconds = Int64(((Double(hour * 3600 + minute * 60) + second) * 1e9).rounded())
        return UTCTime(date: date, timeOfDay: TimeOfDay(nanosecondsSinceMidnight: nanoseconds))
    }
}
