import Platform
import NMEA

/// A kernel pulse-per-second device (`/dev/ppsN`, the Linux PPS API of `linux/pps.h`): the
/// system time of each pulse's assert edge, as the kernel stamped it in its interrupt
/// handler. A thin wrapper: opening, and `PPS_FETCH` with a time-out.
public final class PPSDevice: Sendable {
    /// One pulse: when its assert edge came (the system clock, `CLOCK_REALTIME`), and the
    /// kernel's count of edges so far (a gap in it is a missed pulse).
    public struct Pulse: Sendable, Hashable {
        /// The system time of the edge.
        public var time: UTCTime
        /// The kernel's sequence number of the edge.
        public var sequence: UInt32
    }

    /// The device's path.
    public let path: String
    private let descriptor: Int32

    /// Opens the PPS device at `path` (read-only).
    public init(path: String) throws(GPSError) {
        self.path = path
        do throws(Errno) {
            descriptor = try Syscall.open(path, [.readOnly, .closeOnExec])
        } catch {
            throw .openFailed(path: path, errno: error)
        }
    }

    deinit { Syscall.close(descriptor) }

    /// Waits up to `timeout` seconds for the next pulse; `nil` when none came.
    public func nextPulse(timeout: Double) throws(Errno) -> Pulse? {
        guard let pulse = try Syscall.fetchPulse(descriptor, timeout: timeout) else { return nil }
        return Pulse(time: UTCTime(posixSeconds: pulse.seconds, nanoseconds: pulse.nanoseconds), sequence: pulse.sequence)
    }
}
