import Dispatch

/// Runs work on a Dispatch queue, timed by the monotonic clock.
public struct QueueScheduler: Scheduler {
    /// The queue work runs on.
    public let queue: DispatchQueue
    private let origin: DispatchTime

    /// Creates a scheduler for `queue` (a new serial queue when none is given).
    public init(queue: DispatchQueue = DispatchQueue(label: "Signals.QueueScheduler")) {
        self.queue = queue
        origin = .now()
    }

    public var now: Duration {
        .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- origin.uptimeNanoseconds))
    }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        queue.async { if disposable.claim() { action() } }
        return disposable
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.clampedNanoseconds))) {
            if disposable.claim() { action() }
        }
        return disposable
    }
}

/// Runs work at once, on the calling thread (delays are not waited for).
public struct ImmediateScheduler: Scheduler {
    /// Creates one.
    public init() {}

    public var now: Duration { .zero }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        action()
        return SimpleDisposable(disposed: true)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        action()
        return SimpleDisposable(disposed: true)
    }
}
