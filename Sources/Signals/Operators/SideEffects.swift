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
        Signal { observer in
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
