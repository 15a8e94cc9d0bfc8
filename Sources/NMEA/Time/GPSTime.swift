/// A GPS time: the week (continuous, not modulo 1,024) and the time into it.
public struct GPSTime: Sendable, Hashable {
    /// The GPS week since 1980-01-06.
    public var week: Int
    /// Nanoseconds into the week.
    public var nanosecondsOfWeek: Int64

    /// A GPS time.
    public init(week: Int, nanosecondsOfWeek: Int64) {
        self.week = week
        self.nanosecondsOfWeek = nanosecondsOfWeek
    }

    /// The leap seconds assumed, as gpsd assumes them, until a receiver says them: GPS time has
    /// been 18 s ahead of UTC since 2017-01-01.
    public static let assumedLeapSeconds = 18

    /// 1980-01-06, GPS time's origin, in POSIX seconds.
    static let origin: Int64 = 315_964_800
    /// A GPS week, in milliseconds.
    static let weekMilliseconds: Int64 = 604_800_000

    /// The GPS time of a week and a UBX time of week (ms) with its fraction (ns, signed).
    init(week: Int, timeOfWeek: UInt32, fraction: Int32?) {
        self.init(week: week, nanosecondsOfWeek: Int64(timeOfWeek) * 1_000_000 + Int64(fraction ?? 0))
    }

    /// The UTC instant, `leapSeconds` (GPS time minus UTC) behind.
    public func utc(leapSeconds: Int) -> UTCTime {
        let nanoseconds = nanosecondsOfWeek + Int64(week) * Self.weekMilliseconds * 1_000_000 - Int64(leapSeconds) * 1_000_000_000
        var (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000_000
        }
        return UTCTime(posixSeconds: Self.origin + seconds, nanoseconds: fraction)
    }
}
