import NMEA

/// One sample of a reference clock: at system time ``systemTime``, the true time was
/// ``offset`` seconds ahead of the system clock. chronyd gets it over its `SOCK` socket
/// (``ChronySocket``), ntpd and chronyd over a shared-memory segment (``NTPSHMSegment``), and
/// gpsd's clients as a `TOFF` or `PPS` report.
public struct TimeSample: Sendable, Hashable {
    /// What the receiver announced about a leap second at the end of the UTC day.
    public enum Leap: Int32, Sendable, Hashable {
        /// None announced.
        case none = 0
        /// A second is inserted (23:59:60).
        case insert = 1
        /// A second is deleted.
        case delete = 2
    }

    /// The system clock's time of the measurement (`CLOCK_REALTIME`).
    public var systemTime: UTCTime
    /// The true time minus the system time at ``systemTime``, seconds.
    public var offset: Double
    /// Whether it is a pulse (chrony takes its second from another source) rather than a
    /// whole time.
    public var pulse: Bool
    /// The leap second announced, if any.
    public var leap: Leap
    /// The true time itself, when the sample was made from it (a `Double` offset from a clock
    /// years off loses the nanoseconds).
    private var exactTrueTime: UTCTime?

    /// A sample.
    public init(systemTime: UTCTime, offset: Double, pulse: Bool = false, leap: Leap = .none) {
        self.systemTime = systemTime
        self.offset = offset
        self.pulse = pulse
        self.leap = leap
    }

    /// Samples are equal when they tell the same (whether made from a true time or an offset).
    public static func == (lhs: TimeSample, rhs: TimeSample) -> Bool {
        lhs.systemTime == rhs.systemTime && lhs.offset == rhs.offset && lhs.pulse == rhs.pulse && lhs.leap == rhs.leap
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(systemTime)
        hasher.combine(offset)
        hasher.combine(pulse)
        hasher.combine(leap)
    }

    /// A sample of `trueTime` taken at system time `systemTime`.
    public init(systemTime: UTCTime, trueTime: UTCTime, pulse: Bool = false, leap: Leap = .none) {
        self.init(systemTime: systemTime, offset: trueTime.seconds(since: systemTime), pulse: pulse, leap: leap)
        exactTrueTime = trueTime
    }
}

extension TimeSample {
    /// The true time the sample gives: ``systemTime`` plus ``offset``, as whole seconds since
    /// 1970 and nanoseconds (kept apart so that nothing is lost to a `Double`'s precision).
    public var trueTime: (seconds: Int64, nanoseconds: Int64) {
        if let exactTrueTime { return exactTrueTime.posixTime }
        let system = systemTime.posixTime
        let whole = offset.rounded(.down)
        var seconds = system.seconds + Int64(whole)
        var nanoseconds = system.nanoseconds + Int64(((offset - whole) * 1e9).rounded())
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        return (seconds, nanoseconds)
    }

    /// The leap second to announce, by gpsd's rule: only in June and December. A receiver
    /// announces one for months before (GPS from its almanac, three months ahead); ntpd and
    /// chronyd expect it in the last month only.
    var announcedLeap: Leap {
        let month = UTCTime(posixSeconds: trueTime.seconds, nanoseconds: 0).date.month
        return month == 6 || month == 12 ? leap : .none
    }
}
