import Platform
extension Signal {
    /// Once both signals have sent a value, sends `reduce` of the latest value of each,
    /// whenever either sends.
    ///
    /// Completes when both have completed, or as soon as one completes without ever having
    /// sent a value (no combination can follow); fails as soon as either fails. `reduce` runs
    /// under a lock that keeps the combinations in the order of the values they combine.
    public func combineLatest<Other: Sendable, Result: Sendable>(
        with other: Signal<Other, Failure>,
        _ reduce: @escaping @Sendable (Value, Other) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure> { observer in
            let state = CombineLatestState<Value, Other>()
            let subscriptions = CompositeDisposable()
            subscriptions += observeSide(under: state.lock, failingInto: observer, next: { value in
                state.first = value
                if let second = state.second { observer.next(reduce(value, second)) }
            }, completed: {
                state.firstCompleted = true
                if state.isFinished { observer.completed() }
            })
            guard observer.isActive else { return subscriptions }
            subscriptions += other.observeSide(under: state.lock, failingInto: observer, next: { value in
                state.second = value
                if let first = state.first { observer.next(reduce(first, value)) }
            }, completed: {
                state.secondCompleted = true
                if state.isFinished { observer.completed() }
            })
            return subscriptions
        }
    }

    /// ``combineLatest(with:_:)`` that sends both latest values as a pair.
    public func combineLatest<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        combineLatest(with: other) { ($0, $1) }
    }
}

/// The latest value of each side; guarded by `lock`, which is held while a combination is
/// sent (recursive, so a handler may make either side send again).
private final class CombineLatestState<First, Second>: @unchecked Sendable {
    let lock = Lock(recursive: true)
    var first: First?
    var second: Second?
    var firstCompleted = false
    var secondCompleted = false

    var isFinished: Bool {
        (firstCompleted && secondCompleted) || (firstCompleted && first == nil) || (secondCompleted && second == nil)
    }
}
