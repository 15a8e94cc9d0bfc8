import Platform
extension Signal {
    /// Observes this signal as one side of an operator that combines two signals: its values
    /// and its completion go to `next` and `completed` with `lock` held (the operator's state
    /// lock, held while it sends, so that what it sends keeps the order of what came in); a
    /// failure is forwarded to `observer` at once.
    func observeSide<Result: Sendable>(
        under lock: Lock,
        failingInto observer: Observer<Result, Failure>,
        next: @escaping @Sendable (Value) -> Void,
        completed: @escaping @Sendable () -> Void
    ) -> Disposable {
        observe { event in
            lock.withLock {
                switch event {
                case .next(let value): next(value)
                case .failed(let error): observer.failed(error)
                case .completed: completed()
                }
            }
        }
    }
}
