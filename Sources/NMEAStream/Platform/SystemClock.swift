import CPlatform
import NMEA

extension UTCTime {
    /// The system's clock now (`CLOCK_REALTIME`), to the nanosecond.
    public static var now: UTCTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let seconds = Int64(spec.tv_sec)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let nanoseconds = (seconds - days * 86_400) * 1_000_000_000 + Int64(spec.tv_nsec)
        return UTCTime(date: CalendarDate(daysSince1970: Int(days)), timeOfDay: TimeOfDay(nanosecondsSinceMidnight: nanoseconds))
    }
}
