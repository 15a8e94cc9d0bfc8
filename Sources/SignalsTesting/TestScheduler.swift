import Signals
import Platform

/// A scheduler with a virtual clock: nothing runs until the test advances time.
///
/// ```swift
/// let scheduler = TestScheduler()
/// signal.delay(.seconds(2), on: scheduler).observe(next: { received.append($0) })
/// scheduler.advance(by: .seconds(2))   // the delayed values arrive now, without sleeping
/// ```
/// Work due at the same instant runs in the order it was scheduled. Thread-safe; work runs on
/// the thread that advances the clock.
public final class TestScheduler: Scheduler, Sendable {
    private struct Item {
        let due: Duration
        let sequence: Int
        let action: @Sendable () -> Void
        let disposable: SimpleDisposable
    }

    private struct State {
        var clock: Duration
        var items: [Item] = []
        var sequence = 0
    }

    private let state: Protected<State>

    /// Creates a scheduler whose clock reads `start`.
    public init(start: Duration = .zero) { state = Protected(State(clock: start)) }

    public var now: Duration { state.withLock { $0.clock } }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        state.withLock { state in
            state.items.append(Item(due: state.clock + max(delay, .zero), sequence: state.sequence, action: action, disposable: disposable))
            state.sequence += 1
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
        state.withLock { $0.clock = max($0.clock, instant) }
    }

    /// Runs everything scheduled, however far ahead, advancing the clock as it goes.
    public func run() {
        while let due = state.withLock({ $0.items.map(\.due).min() }) {
            advance(to: due)
        }
    }

    /// The number of pending (not yet run, not cancelled) items.
    public var pendingCount: Int { state.withLock { $0.items.filter { !$0.disposable.isDisposed }.count } }

    private func takeNext(dueBy instant: Duration) -> Item? {
        state.withLock { state in
            let items = state.items
            guard let index = items.indices.filter({ items[$0].due <= instant })
                .min(by: { (items[$0].due, items[$0].sequence) < (items[$1].due, items[$1].sequence) })
            else { return nil }
            let item = state.items.remove(at: index)
            state.clock = max(state.clock, item.due)
            return item
        }
    }
}
