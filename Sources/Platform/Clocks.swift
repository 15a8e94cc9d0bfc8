import CPlatform

/// The system's clocks, read without Foundation.
package enum SystemClock {
    /// The wall clock (`CLOCK_REALTIME`): seconds and nanoseconds since 1970 UTC.
    package static func realtime() -> (seconds: Int64, nanoseconds: Int64) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return (Int64(spec.tv_sec), Int64(spec.tv_nsec))
    }
}

/// Pausing the calling thread: the one place the package sleeps a thread rather than waiting
/// for an event. For the few waits that only time can end: a device settling after it was
/// opened, a poll of a line the kernel reports on no descriptor.
package enum ThreadPause {
    /// Sleeps the calling thread for `duration` (resumed early by nothing but the end of it).
    package static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, nmeastream_errno() == EINTR { request = remaining }
    }
}
