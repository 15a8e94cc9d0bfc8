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
            let subscriptions = CompoundDisposable()
            subscriptions += observe { event in
                state.lock.withLock {
                    switch event {
                    case .next(let value):
                        state.first = value
                        if let second = state.second { observer.send(reduce(value, second)) }
                    case .error(let error):
                        observer.send(error: error)
                    case .completed:
                        state.firstCompleted = true
                        if state.isFinished { observer.sendCompleted() }
                    }
                }
            }
            guard observer.isActive else { return subscriptions }
            subscriptions += other.observe { event in
                state.lock.withLock {
                    switch event {
                    case .next(let value):
                        state.second = value
                        if let first = state.first { observer.send(reduce(first, value)) }
                    case .error(let error):
                        observer.send(error: error)
                    case .completed:
                        state.secondCompleted = true
                        if state.isFinished { observer.sendCompleted() }
                    }
                }
            }
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
