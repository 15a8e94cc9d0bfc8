/// Places UBX messages on the same clock as NMEA sentences, so that one ``CycleTracker``
/// tells the epochs of both protocols apart and a receiver that sends both makes one epoch
/// per cycle, not two.
///
/// A UBX navigation message names its epoch by the GPS time of week in milliseconds (iTOW);
/// an NMEA sentence by the UTC time of day. The clock turns an iTOW into the UTC time of day of
/// the same instant: less the leap seconds (the receiver's, from NAV-TIMEGPS or NAV-TIMELS,
/// or implied by NAV-PVT's and NAV-TIMEUTC's own UTC; 18, as gpsd assumes, until then), to
/// the nearest 10 ms (as NMEA states it, to the hundredth of a second). Messages whose iTOW
/// lies within 10 ms of the epoch's are the epoch's (u-blox's iTOW may jitter by a
/// millisecond within one epoch; gpsd allows the same), and the leap seconds used change only
/// at an epoch's first message: a receiver that says them in the middle of an epoch does not
/// split it.
struct UBXEpochClock: Sendable {
    /// GPS time minus UTC, seconds, as the receiver last said or implied it; `nil` until then.
    private(set) var leapSeconds: Int?
    private var epochTimeOfWeek: Int64?
    private var epochLeapSeconds = GPSTime.assumedLeapSeconds

    /// Notes leap seconds a receiver said (or that its UTC beside its iTOW implies).
    mutating func noteLeapSeconds(_ seconds: Int) {
        leapSeconds = seconds
    }

    /// Notes the leap seconds implied by a UTC instant and the GPS time of week of the same
    /// instant (NAV-PVT, NAV-TIMEUTC), when they imply a count GPS time has had (0 to 60 s).
    mutating func noteUTC(_ time: UTCTime, timeOfWeek: UInt32) {
        let posix = time.posixTime
        let utcMilliseconds = (posix.seconds - GPSTime.origin) * 1000 + (posix.nanoseconds + 500_000) / 1_000_000
        let week = GPSTime.weekMilliseconds
        var difference = (Int64(timeOfWeek) - utcMilliseconds % week) % week
        if difference > week / 2 { difference -= week }
        if difference < -week / 2 { difference += week }
        let seconds = (difference + (difference >= 0 ? 500 : -500)) / 1000
        if (0...60).contains(seconds) { leapSeconds = Int(seconds) }
    }

    /// The UTC time of day of the epoch a message with `timeOfWeek` (ms) belongs to.
    mutating func timeOfDay(timeOfWeek: UInt32) -> TimeOfDay {
        var milliseconds = Int64(timeOfWeek)
        if let current = epochTimeOfWeek, abs(milliseconds - current) <= 10 {
            milliseconds = current
        } else {
            epochTimeOfWeek = milliseconds
            epochLeapSeconds = leapSeconds ?? GPSTime.assumedLeapSeconds
        }
        let rounded = (milliseconds + 5) / 10 * 10
        var ofDay = (rounded - Int64(epochLeapSeconds) * 1000) % 86_400_000
        if ofDay < 0 { ofDay += 86_400_000 }
        return TimeOfDay(nanosecondsSinceMidnight: ofDay * 1_000_000)
    }
}
