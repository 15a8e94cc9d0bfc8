extension Signal {
    /// Runs the given actions as events pass through (before they are forwarded), and
    /// `disposed` when the subscription ends (by dispose or by a terminal event).
    public func on(
        event: (@Sendable (Event<Value, Failure>) -> Void)? = nil,
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> Signal {
        if event == nil, next == nil, error == nil, completed == nil, terminated == nil, let disposed {
            // Only the end: the observer goes to this signal's body unwrapped, with no step
            // added to each event's way.
            let body = self.body
            return Signal { observer in CompoundDisposable([body(observer), ActionDisposable(disposed)].compactMap { $0 }) }
        }
        return Signal { observer in
            let subscription = observe { passing in
                event?(passing)
                switch passing {
                case .next(let value): next?(value)
                case .error(let failure): error?(failure)
                case .completed: completed?()
                }
                if passing.isTerminal { terminated?() }
                observer.send(passing)
            }
            guard let disposed else { return subscription }
            return CompoundDisposable([subscription, ActionDisposable(disposed)])
        }
    }

    /// Runs `action` on each value before forwarding it.
    public func doNext(_ action: @escaping @Sendable (Value) -> Void) -> Signal {
        on(next: action)
    }
}
