/// Where and when work runs: the time-based operators take one, so tests can use a virtual
/// clock (`TestScheduler` in `SignalsTesting`) instead of sleeping.
public protocol Scheduler: Sendable {
    /// The scheduler's clock: time elapsed since its own origin.
    var now: Duration { get }

    /// Runs `action` as soon as possible. Disposing the result before it ran cancels it; the
    /// result counts as disposed once the action has started.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable

    /// Runs `action` once `delay` has passed (at once for a delay of zero or less).
    /// Disposing the result before it ran cancels it; the result counts as disposed once the
    /// action has started.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable
}

extension Duration {
    /// The duration in seconds, fractions included.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, clamped to `Int64` (negative durations give 0).
    package var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return UInt64(Int64.max) }
        return min(whole &+ UInt64(max(0, attoseconds) / 1_000_000_000), UInt64(Int64.max))
    }
}
