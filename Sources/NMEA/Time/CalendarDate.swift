/// A calendar date in the proleptic Gregorian calendar (UTC).
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Four bytes, not twenty-four (every fix holds two instants, its time and its arrival's,
    // and a fix is copied whole at least once per epoch), in one word written at once: the
    // year offset by 32,768, then the month, then the day, so that the word orders as the date.
    private var packed: UInt32

    @inline(__always)
    private init(packedYear year: Int, month: Int, day: Int) {
        packed = UInt32(UInt16(clamping: year &+ 32_768)) << 16 | UInt32(UInt8(clamping: month)) << 8
            | UInt32(UInt8(clamping: day))
    }

    /// The full year, such as 2024 (held within ±32,767).
    public var year: Int {
        get { Int(packed >> 16) - 32_768 }
        set { self = CalendarDate(packedYear: newValue, month: month, day: day) }
    }
    /// The month, 1 to 12.
    public var month: Int {
        get { Int(packed >> 8 & 0xFF) }
        set { self = CalendarDate(packedYear: year, month: newValue, day: day) }
    }
    /// The day of the month, 1 to 31.
    public var day: Int {
        get { Int(packed & 0xFF) }
        set { self = CalendarDate(packedYear: year, month: month, day: newValue) }
    }

    /// Creates a date; returns `nil` for a day that does not exist, or a year beyond ±32,767.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CalendarDate.daysIn(month: month, year: year),
              abs(year) <= 32_767 else { return nil }
        self.init(packedYear: year, month: month, day: day)
    }

    /// Creates the date `daysSince1970` days after 1970-01-01 (the year held within ±32,767).
    public init(daysSince1970: Int) {
        // Howard Hinnant's civil_from_days.
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(packedYear: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: doy - (153 * mp + 2) / 5 + 1)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CalendarDate { CalendarDate(daysSince1970: daysSince1970 + days) }

    /// Orders by date.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.packed < rhs.packed }

    /// `yyyy-mm-dd`.
    public var description: String {
        zeroPadded(year, width: 4) + "-" + zeroPadded(month, width: 2) + "-" + zeroPadded(day, width: 2)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
