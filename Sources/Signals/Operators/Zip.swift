import Platform
extension Signal {
    /// Pairs the values of both signals in order (the first with the first, the second with
    /// the second...) and sends `reduce` of each pair.
    ///
    /// Values wait in a buffer for their partner. Completes once one side has completed and
    /// every value it sent has been paired; fails as soon as either fails.
    public func zip<Other: Sendable, Result: Sendable>(
        with other: Signal<Other, Failure>,
        _ reduce: @escaping @Sendable (Value, Other) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure> { observer in
            let state = ZipState<Value, Other>()
            let subscriptions = CompositeDisposable()
            // After each value or completion: a finished side with nothing left ends the zip.
            let endIfFinished: @Sendable () -> Void = { if state.isFinished { observer.completed() } }
            subscriptions += observeSide(under: state.lock, failingInto: observer, next: { value in
                if state.second.isEmpty {
                    state.first.append(value)
                } else {
                    observer.next(reduce(value, state.second.removeFirst()))
                }
                endIfFinished()
            }, completed: {
                state.firstCompleted = true
                endIfFinished()
            })
            guard observer.isActive else { return subscriptions }
            subscriptions += other.observeSide(under: state.lock, failingInto: observer, next: { value in
                if state.first.isEmpty {
                    state.second.append(value)
                } else {
                    observer.next(reduce(state.first.removeFirst(), value))
                }
                endIfFinished()
            }, completed: {
                state.secondCompleted = true
                endIfFinished()
            })
            return subscriptions
        }
    }

    /// ``zip(with:_:)`` that sends each pair as it is.
    public func zip<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        zip(with: other) { ($0, $1) }
    }
}

/// The values waiting for a partner, oldest first; guarded by `lock`, which is held while a
/// pair is sent (recursive, so a handler may make either side send again).
private final class ZipState<First, Second>: @unchecked Sendable {
    let lock = Lock(recursive: true)
    var first: [First] = []
    var second: [Second] = []
    var firstCompleted = false
    var secondCompleted = false

    var isFinished: Bool { (firstCompleted && first.isEmpty) || (secondCompleted && second.isEmpty) }
}
