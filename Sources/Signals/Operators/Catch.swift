extension Signal {
    /// On failure, goes on with the signal that `handler` makes of the error, instead of
    /// failing.
    public func `catch`<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { observer in
            let subscriptions = CompoundDisposable()
            subscriptions += observe { event in
                switch event {
                case .next(let value): observer.send(value)
                case .completed: observer.sendCompleted()
                case .error(let error): subscriptions += handler(error).observe(observer)
                }
            }
            return subscriptions
        }
    }

    /// Transforms the failure.
    public func mapError<NewFailure: Error>(_ transform: @escaping @Sendable (Failure) -> NewFailure) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { observer in
            observe { observer.send($0.mapError(transform)) }
        }
    }
}
