extension Signal {
    /// On failure, goes on with the signal that `handler` makes of the error, instead of
    /// failing.
    public func flatMapError<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { observer in
            let subscriptions = CompositeDisposable()
            subscriptions += observe { event in
                switch event {
                case .next(let value): observer.next(value)
                case .completed: observer.completed()
                case .failed(let error): subscriptions += handler(error).observe(observer)
                }
            }
            return subscriptions
        }
    }

    /// Transforms the failure.
    public func mapError<NewFailure: Error>(_ transform: @escaping @Sendable (Failure) -> NewFailure) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { observer in
            observe { observer.on($0.mapError(transform)) }
        }
    }
}
