import NMEA

/// The members of a gpsd JSON report that a subscriber reads: its class, device and time,
/// and a `TPV`'s fix. A member of the wrong type, or a value no receiver can report (a
/// latitude past a pole, a time with hour 99, a speed of 1e300), reads as absent, as gpsd's
/// own clients read a member they cannot use: one odd member costs that member, not the
/// report, and nothing a message holds can stop the subscriber.
struct ReportObject: Decodable {
    var reportClass: String?
    var device: String?
    var time: String?
    /// A `TPV`'s fix: mode, status (what corrections made it, as GGA's quality), time,
    /// position, altitude, speed, track, climb, and the corrections' age and station.
    var fix = Fix()

    private enum Key: String, CodingKey {
        case reportClass = "class", device, time, mode, status, lat, lon, altMSL, geoidSep, speed, track, climb, dgpsAge, dgpsSta
    }

    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Key.self)
        func read<T: Decodable>(_ key: Key, as type: T.Type = T.self) -> T? {
            (try? members.decodeIfPresent(T.self, forKey: key)) ?? nil
        }
        func number(_ key: Key, within range: ClosedRange<Double>) -> Double? {
            read(key, as: Double.self).flatMap { range.contains($0) ? $0 : nil }
        }
        reportClass = read(.reportClass)
        device = read(.device)
        time = read(.time)
        fix.mode = read(.mode, as: Int.self).flatMap(FixMode.init(rawValue:)) ?? .unknown
        fix.time = time.flatMap(Self.utcTime)
        fix.latitude = number(.lat, within: -90...90)
        fix.longitude = number(.lon, within: -180...180)
        // Bounds no receiver on or near the Earth passes (gpsd's own sanity limits are
        // tighter); they keep every later sum and rendering finite.
        fix.altitudeMSL = number(.altMSL, within: -100_000...100_000_000)
        fix.geoidSeparation = number(.geoidSep, within: -1_000...1_000)
        fix.speed = number(.speed, within: 0...100_000)
        fix.track = number(.track, within: 0...360)
        fix.climb = number(.climb, within: -100_000...100_000)
        fix.quality = read(.status, as: Int.self).flatMap(Self.quality)
        fix.differentialAge = number(.dgpsAge, within: 0...1_000_000)
        fix.differentialStation = read(.dgpsSta, as: Int.self).flatMap { (0...4095).contains($0) ? $0 : nil }
    }

    /// gpsd's `status` as the GGA quality that gives it (see ``Fix/gpsdStatus``); `nil` for
    /// one GGA has no quality for (6, satellites with dead reckoning) and for nonsense.
    static func quality(_ status: Int) -> FixQuality? {
        switch status {
        case 0: .invalid
        case 1: .gps
        case 2: .dgps
        case 3: .rtkFixed
        case 4: .rtkFloat
        case 5: .estimated
        case 7: .manual
        case 8: .simulated
        default: nil
        }
    }

    /// `2024-06-05T12:30:04.000Z` (ISO 8601 in UTC, as gpsd writes it) as a UTC time; `nil`
    /// for anything else, an impossible date or time among them.
    static func utcTime(_ text: String) -> UTCTime? {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SS, then an optional fraction, then Z.
        guard bytes.count >= 20, bytes.count <= 40, bytes.last == UInt8(ascii: "Z"),
              bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = digits(bytes[0..<4]), let month = digits(bytes[5..<7]), let day = digits(bytes[8..<10]),
              let hour = digits(bytes[11..<13]), let minute = digits(bytes[14..<16]), let second = digits(bytes[17..<19]),
              let date = CalendarDate(year: year, month: month, day: day) else { return nil }
        var nanosecond = 0
        let fraction = bytes[19..<(bytes.count - 1)]
        if !fraction.isEmpty {
            // A point and 1 to 9 digits.
            guard fraction.first == UInt8(ascii: "."), (2...10).contains(fraction.count),
                  let value = digits(fraction.dropFirst()) else { return nil }
            nanosecond = value
            for _ in fraction.count..<10 { nanosecond *= 10 }
        }
        guard let timeOfDay = TimeOfDay(hour: hour, minute: minute, second: second, nanosecond: nanosecond) else { return nil }
        return UTCTime(date: date, timeOfDay: timeOfDay)
    }

    /// Decimal digits only (at most 9, so no overflow), as a number.
    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
