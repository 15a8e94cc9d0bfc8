import CPlatform
import NMEA

extension UTCTime {
    /// The system's clock now (`CLOCK_REALTIME`), to the nanosecond.
    public static var now: UTCTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UTCTime(posixSeconds: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }
}
