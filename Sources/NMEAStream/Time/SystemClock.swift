import NMEA
import Platform

extension UTCTime {
    /// The system's clock now (`CLOCK_REALTIME`), to the nanosecond.
    public static var now: UTCTime {
        let now = SystemClock.realtime()
        return UTCTime(posixSeconds: now.seconds, nanoseconds: now.nanoseconds)
    }
}
