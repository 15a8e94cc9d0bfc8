/// A UTC instant: a date and a time of day, as a receiver reports it (leap seconds included).
public struct UTCTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The UTC date.
    public var date: CalendarDate
    /// The UTC time of day; second 60 during a leap second.
    public var timeOfDay: TimeOfDay

    /// Creates an instant from its date and time of day.
    public init(date: CalendarDate, timeOfDay: TimeOfDay) {
        self.date = date
        self.timeOfDay = timeOfDay
    }

    /// Seconds since 1970-01-01T00:00:00Z in POSIX time (a leap second reads as the following
    /// second's first instant, as POSIX has no second 60).
    public var secondsSince1970: Double {
        Double(date.daysSince1970) * 86_400 + Double(timeOfDay.nanosecondsSinceMidnight) / 1e9
    }

    /// The instant `seconds` and `nanoseconds` after 1970-01-01T00:00:00Z (a POSIX time, as
    /// the system clock gives it).
    public init(posixSeconds seconds: Int64, nanoseconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let nanosecondsOfDay = (seconds - days * 86_400) * 1_000_000_000 + nanoseconds
        self.init(date: CalendarDate(daysSince1970: Int(days)), timeOfDay: TimeOfDay(nanosecondsSinceMidnight: nanosecondsOfDay))
    }

    /// The time to the nearest millisecond, as gpsd writes times (a UBX receiver's time is
    /// often a few microseconds before the second it names). A time in the last half
    /// millisecond of a day is the next day's midnight, or, during a leap second, the day's
    /// last half millisecond is.
    public var roundedToMillisecond: UTCTime {
        let remainder = timeOfDay.nanosecondsSinceMidnight % 1_000_000
        guard remainder != 0 else { return self }
        let nanoseconds = timeOfDay.nanosecondsSinceMidnight - remainder + (remainder >= 500_000 ? 1_000_000 : 0)
        let dayEnd: Int64 = timeOfDay.isLeapSecond ? 86_401_000_000_000 : 86_400_000_000_000
        guard nanoseconds >= dayEnd else {
            return UTCTime(date: date, timeOfDay: TimeOfDay(nanosecondsSinceMidnight: nanoseconds))
        }
        return UTCTime(date: CalendarDate(daysSince1970: date.daysSince1970 + 1), timeOfDay: TimeOfDay(nanosecondsSinceMidnight: 0))
    }

    /// The whole seconds since 1970-01-01T00:00:00Z (a POSIX time; a leap second counts as the
    /// next second's), and the nanoseconds past them.
    public var posixTime: (seconds: Int64, nanoseconds: Int64) {
        let nanoseconds = timeOfDay.nanosecondsSinceMidnight
        return (Int64(date.daysSince1970) * 86_400 + nanoseconds / 1_000_000_000, nanoseconds % 1_000_000_000)
    }

    /// `self` minus `other`, in seconds, computed in whole days and nanoseconds so that no
    /// precision is lost to the size of a POSIX time.
    public func seconds(since other: UTCTime) -> Double {
        let days = Int64(date.daysSince1970 - other.date.daysSince1970)
        let nanoseconds = days * 86_400_000_000_000 + timeOfDay.nanosecondsSinceMidnight - other.timeOfDay.nanosecondsSinceMidnight
        return Double(nanoseconds) / 1e9
    }

    /// Orders by date, then time of day.
    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        (lhs.date, lhs.timeOfDay) < (rhs.date, rhs.timeOfDay)
    }

    /// ISO 8601 with milliseconds, as gpsd writes it: `2024-05-01T12:34:56.789Z`.
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes ISO 8601 to the nearest millisecond (`2024-05-01T12:34:56.789Z`), in quotes when asked,
    /// at `target` (room for 32 bytes), and returns the byte count. Years past 9999 are clamped.
    public func writeISO8601(into target: UnsafeMutablePointer<UInt8>, quoted: Bool = false) -> Int {
        let time = roundedToMillisecond
        let date = time.date, timeOfDay = time.timeOfDay
        var index = 0
        func put(_ byte: UInt8) {
            target[index] = byte
            index += 1
        }
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var value = max(0, value)
            while divisor > 0 {
                put(UInt8(ascii: "0") &+ UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        if quoted { put(UInt8(ascii: "\"")) }
        digits(min(date.year, 9999), 4)
        put(UInt8(ascii: "-"))
        digits(date.month, 2)
        put(UInt8(ascii: "-"))
        digits(date.day, 2)
        put(UInt8(ascii: "T"))
        digits(timeOfDay.hour, 2)
        put(UInt8(ascii: ":"))
        digits(timeOfDay.minute, 2)
        put(UInt8(ascii: ":"))
        digits(timeOfDay.second, 2)
        put(UInt8(ascii: "."))
        digits(timeOfDay.nanosecond / 1_000_000, 3)
        put(UInt8(ascii: "Z"))
        if quoted { put(UInt8(ascii: "\"")) }
        return index
    }

    /// Appends ISO 8601 with milliseconds (`2024-05-01T12:34:56.789Z`) to `bytes`.
    public func appendISO8601(to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            let count = writeISO8601(into: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: count))
        }
    }
}

