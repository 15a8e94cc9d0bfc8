/// A UTC time of day as NMEA sentences give it (`hhmmss.sss`), to the nanosecond.
///
/// Second 60 is valid: receivers report `235960` during a leap second.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since midnight; at least 86 400 s during a leap second.
    public var nanosecondsSinceMidnight: Int64

    /// Creates a time of day from nanoseconds since midnight.
    public init(nanosecondsSinceMidnight: Int64) {
        self.nanosecondsSinceMidnight = nanosecondsSinceMidnight
    }

    /// Creates a time of day; `second` may be 60 (leap second). Returns `nil` for impossible values.
    public init?(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
              (0..<1_000_000_000).contains(nanosecond)
        else { return nil }
        let seconds = Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        nanosecondsSinceMidnight = seconds * 1_000_000_000 + Int64(nanosecond)
    }

    /// The hour, 0 to 23.
    public var hour: Int { Int(min(nanosecondsSinceMidnight / 1_000_000_000, 86_399) / 3600) }
    /// The minute, 0 to 59.
    public var minute: Int { Int(min(nanosecondsSinceMidnight / 1_000_000_000, 86_399) % 3600 / 60) }
    /// The second, 0 to 60 (60 only during a leap second).
    public var second: Int {
        let seconds = nanosecondsSinceMidnight / 1_000_000_000
        return seconds >= 86_400 ? 60 + Int(seconds - 86_400) : Int(seconds % 60)
    }
    /// The nanoseconds within the second.
    public var nanosecond: Int { Int(nanosecondsSinceMidnight % 1_000_000_000) }
    /// `true` during an inserted leap second (second 60).
    public var isLeapSecond: Bool { nanosecondsSinceMidnight >= 86_400_000_000_000 }

    /// Orders by time since midnight.
    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.nanosecondsSinceMidnight < rhs.nanosecondsSinceMidnight
    }

    /// `hh:mm:ss.sss`.
    public var description: String {
        zeroPadded(hour, width: 2) + ":" + zeroPadded(minute, width: 2) + ":" + zeroPadded(second, width: 2) + "."
            + zeroPadded(nanosecond / 1_000_000, width: 3)
    }
}

extension NMEAField {
    /// A time `hhmmss` with an optional fraction of any length (`hhmmss.ss`); `nil` when empty.
    @inlinable
    public func timeOfDay() throws(FieldError) -> TimeOfDay? {
        guard count > 0 else { return nil }
        let expected = "a time hhmmss[.sss]"
        guard count >= 6, count == 6 || base[6] == UInt8(ascii: ".") else { throw FieldError(expected: expected) }
        var parts = (0, 0, 0)
        for pair in 0..<3 {
            let high = base[pair * 2] &- UInt8(ascii: "0"), low = base[pair * 2 + 1] &- UInt8(ascii: "0")
            guard high < 10, low < 10 else { throw FieldError(expected: expected) }
            let value = Int(high) * 10 + Int(low)
            switch pair {
            case 0: parts.0 = value
            case 1: parts.1 = value
            default: parts.2 = value
            }
        }
        var nanosecond = 0
        var scale = 100_000_000
        if count > 7 {
            for index in 7..<count {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { throw FieldError(expected: expected) }
                nanosecond += Int(digit) * scale
                scale /= 10
            }
        } else if count == 7 {
            throw FieldError(expected: expected)
        }
        guard let time = TimeOfDay(hour: parts.0, minute: parts.1, second: parts.2, nanosecond: nanosecond) else {
            throw FieldError(expected: "a time of day up to 23:59:60")
        }
        return time
    }
}
