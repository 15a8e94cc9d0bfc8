import CPlatform
import NMEA

/// One sample for chrony's `SOCK` reference clock: at system time ``systemTime``, the true
/// time was ``offset`` seconds ahead of the system clock.
///
/// chronyd reads it as `struct sock_sample` (chrony's `refclock_sock.c`), which
/// ``encoded()`` lays out with this platform's C compiler, as chronyd's own build does.
public struct ChronySample: Sendable, Hashable {
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

    /// The magic number chrony checks: "SOCK".
    public static let magic: Int32 = 0x534f_434b

    /// A sample.
    public init(systemTime: UTCTime, offset: Double, pulse: Bool = false, leap: Leap = .none) {
        self.systemTime = systemTime
        self.offset = offset
        self.pulse = pulse
        self.leap = leap
    }

    /// The bytes chronyd reads: a `struct sock_sample`.
    public func encoded() -> [UInt8] {
        let (seconds, nanoseconds) = systemTime.posixTime
        var sample = nmeastream_sock_sample()
        sample.tv.tv_sec = time_t(seconds)
        sample.tv.tv_usec = suseconds_t(nanoseconds / 1_000)
        sample.offset = offset
        sample.pulse = pulse ? 1 : 0
        sample.leap = leap.rawValue
        sample.pad = 0
        sample.magic = Self.magic
        return withUnsafeBytes(of: &sample) { Array($0) }
    }
}
