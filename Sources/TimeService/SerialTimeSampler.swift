import NMEA

/// Turns a receiver's fixes into chrony samples of its serial time, by gpsd's rules: pure, so
/// that the rules are tested without a socket or a clock.
///
/// - A fix counts when it is valid (2D or 3D), has a UTC time, and its first byte's arrival
///   was stamped (``Fix/receivedAt``): the sample pairs that arrival with the time the
///   receiver named. Its offset is that time minus the arrival: negative, by how late the
///   report reaches the system (chrony's `offset` option on the refclock line takes it back).
/// - A fix whose receiver says its time is not usable (UBX's validity flags, NAV-PVT's or
///   NAV-TIMEUTC's: date or time not valid, or not fully resolved;
///   ``TimeValidity/isUsableForTiming``) counts as invalid: a u-blox receiver may report a
///   time a second off until it has resolved it.
/// - Only after ``requiredValidFixes`` valid fixes in a row: a receiver that just got its fix
///   may still report a wrong time. An invalid fix starts the count again.
/// - At most one sample per UTC second: the first valid fix of each second (a 5 Hz receiver
///   gives one sample a second, not five).
public struct SerialTimeSampler: Sendable {
    /// How many valid fixes in a row come before the first sample.
    public var requiredValidFixes: Int
    private var validInARow = 0
    private var lastSecond: Int64?

    /// A sampler; by default three valid fixes come before the first sample.
    public init(requiredValidFixes: Int = 3) {
        self.requiredValidFixes = requiredValidFixes
    }

    /// The sample `fix` gives, if it gives one; its leap field is `leap`, or when `nil` the
    /// leap second the fix's receiver announces (``Fix/leapSecondChange``).
    public mutating func sample(for fix: Fix, leap: TimeSample.Leap? = nil) -> TimeSample? {
        guard fix.mode >= .twoD, let time = fix.time, let receivedAt = fix.receivedAt,
              fix.timeValidity?.isUsableForTiming ?? true else {
            validInARow = 0
            return nil
        }
        validInARow += 1
        guard validInARow >= requiredValidFixes else { return nil }
        let second = time.posixTime.seconds
        guard second != lastSecond else { return nil }
        lastSecond = second
        let announced: TimeSample.Leap = switch fix.leapSecondChange {
        case .some(1): .insert
        case .some(-1): .delete
        default: .none
        }
        return TimeSample(systemTime: receivedAt, trueTime: time, leap: leap ?? announced)
    }
}
