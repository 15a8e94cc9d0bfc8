extension Signal {
    /// Forwards events until `trigger` sends a value or terminates (completes or fails): then
    /// completes and disposes the upstream and the trigger.
    ///
    /// The trigger is subscribed first, so a trigger that fires at once lets nothing through.
    public func take<TriggerValue: Sendable, TriggerFailure: Error>(
        until trigger: Signal<TriggerValue, TriggerFailure>
    ) -> Signal {
        Signal { observer in
            let subscriptions = CompositeDisposable()
            subscriptions += trigger.observe { _ in observer.completed() }
            guard observer.isActive else { return subscriptions }
            subscriptions += observe(observer)
            return subscriptions
        }
    }
}
