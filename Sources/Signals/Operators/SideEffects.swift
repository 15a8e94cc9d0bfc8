extension Signal {
    /// Runs the given actions as events pass through (before they are forwarded), and
    /// `disposed` when the subscription ends (by dispose or by a terminal event).
    public func doOn(
        event: (@Sendable (Event<Value, Failure>) -> Void)? = nil,
        next: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> Signal {
        if event == nil, next == nil, failed == nil, completed == nil, terminated == nil, let disposed {
            // Only the end: the observer goes to this signal's body unwrapped, with no step
            // added to each event's way.
            let body = self.body
            return Signal { observer in CompositeDisposable([body(observer), BlockDisposable(disposed)].compactMap { $0 }) }
        }
        return Signal { observer in
            let subscription = observe { passing in
                event?(passing)
                switch passing {
                case .next(let value): next?(value)
                case .failed(let failure): failed?(failure)
                case .completed: completed?()
                }
                if passing.isTerminal { terminated?() }
                observer.on(passing)
            }
            guard let disposed else { return subscription }
            return CompositeDisposable([subscription, BlockDisposable(disposed)])
        }
    }
}
