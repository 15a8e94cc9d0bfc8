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

    /// A sample.
    public init(systemTime: UTCTime, offset: Double, pulse: Bool = false, leap: Leap = .none) {
        self.systemTime = systemTime
        self.offset = offset
        self.pulse = pulse
        self.leap = leap
    }
}

extension TimeSample {
    /// The true time the sample gives: ``systemTime`` plus ``offset``, as whole seconds since
    /// 1970 and nanoseconds (kept apart so that nothing is lost to a `Double`'s precision).
    var trueTime: (seconds: Int64, nanoseconds: Int64) {
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
