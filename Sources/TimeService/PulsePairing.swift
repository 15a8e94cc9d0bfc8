import NMEA

/// Pairs pulse-per-second edges with the second the receiver named, for chrony's `SOCK`
/// clock of the pulse: pure, so that it is tested with recorded or made-up pulse times.
///
/// A pulse marks the start of a UTC second but says nothing of which; the receiver names it
/// in the report it sends after the pulse (NMEA's times are those of the pulse that came
/// before). So a pulse waits for the next serial sample: if that report began to arrive
/// within ``maximumReportDelay`` after the pulse, the pulse was the start of the second the
/// report names, and the pulse's sample is that second minus the pulse's system time: the
/// serial line's latency and jitter are gone.
///
/// - A pulse with no report after it (in time) is not sent; the next pulse replaces it.
/// - A report with no pulse before it (a missed pulse) gives no pulse sample; the next pulse
///   pairs as usual.
/// - A report whose time is not a whole second (a 5 Hz receiver's other reports) does not
///   pair; a second is never sent twice.
public struct PulsePairing: Sendable {
    /// How long after its pulse a report may begin to arrive, seconds.
    public var maximumReportDelay: Double
    private var pulse: UTCTime?
    private var lastSecond: Int64?

    /// A pairing; by default a report may come up to 0.9 s after its pulse.
    public init(maximumReportDelay: Double = 0.9) {
        self.maximumReportDelay = maximumReportDelay
    }

    /// A pulse's assert edge, at system time `time`.
    public mutating func notePulse(at time: UTCTime) { pulse = time }

    /// The pulse sample that the receiver's serial sample `serial` completes, if any. The
    /// serial sample's system time is when its report began to arrive, and its offset the
    /// report's time minus that.
    public mutating func sample(after serial: TimeSample) -> TimeSample? {
        guard let pulse else { return nil }
        self.pulse = nil
        let delay = serial.systemTime.seconds(since: pulse)
        guard delay > 0, delay < maximumReportDelay else { return nil }
        // The report's time, as whole seconds since 1970 and a fraction (kept apart so that
        // nothing is lost to a POSIX time's size).
        let arrival = serial.systemTime.posixTime
        let named = Double(arrival.nanoseconds) / 1e9 + serial.offset
        let whole = named.rounded()
        guard abs(named - whole) < 0.001 else { return nil }
        let second = arrival.seconds + Int64(whole)
        guard second != lastSecond else { return nil }
        lastSecond = second
        return TimeSample(systemTime: pulse, trueTime: UTCTime(posixSeconds: second, nanoseconds: 0), leap: serial.leap)
    }
}
