import Signals

/// A scheduler with a virtual clock: nothing runs until the test advances time.
///
/// ```swift
/// let scheduler = TestScheduler()
/// signal.delay(.seconds(2), on: scheduler).observe(next: { received.append($0) })
/// scheduler.advance(by: .seconds(2))   // the delayed values arrive now, without sleeping
/// ```
/// Work due at the same instant runs in the order it was scheduled. Thread-safe; work runs on
/// the thread that advances the clock.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    private struct Item {
        let due: Duration
        let sequence: Int
        let action: @Sendable () -> Void
        let disposable: SimpleDisposable
    }

    private let lock = Lock()
    // Guarded by `lock`.
    private var clock: Duration
    private var items: [Item] = []
    private var sequence = 0

    /// Creates a scheduler whose clock reads `start`.
    public init(start: Duration = .zero) { clock = start }

    public var now: Duration { lock.withLock { clock } }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        lock.withLock {
            items.append(Item(due: clock + max(delay, .zero), sequence: sequence, action: action, disposable: disposable))
            sequence += 1
        }
        return disposable
    }

    /// Moves the clock forward by `interval`, running everything that falls due, in time order.
    public func advance(by interval: Duration = .zero) {
        advance(to: now + interval)
    }

    /// Moves the clock to `instant` (never backwards), running everything due by then.
    public func advance(to instant: Duration) {
        while let item = takeNext(dueBy: instant) {
            if item.disposable.claim() { item.action() }
        }
        lock.withLock { clock = max(clock, instant) }
    }

    /// Runs everything scheduled, however far ahead, advancing the clock as it goes.
    public func run() {
        while let due = lock.withLock({ items.map(\.due).min() }) {
            advance(to: due)
        }
    }

    /// The number of pending (not yet run, not cancelled) items.
    public var pendingCount: Int { lock.withLock { items.filter { !$0.disposable.isDisposed }.count } }

    private func takeNext(dueBy instant: Duration) -> Item? {
        lock.withLock {
            guard let index = items.indices.filter({ items[$0].due <= instant })
                .min(by: { (items[$0].due, items[$0].sequence) < (items[$1].due, items[$1].sequence) })
            else { return nil }
            let item = items.remove(at: index)
            clock = max(clock, item.due)
            return item
        }
    }
}
