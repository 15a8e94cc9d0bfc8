extension Signal {
    /// Delivers every event on `scheduler`, in order when the scheduler runs its work in
    /// order (a serial queue, the test scheduler).
    ///
    /// Each event waits for the scheduler without bound: for a sender that can outrun the
    /// scheduler (a device, anything from a network), hand over through
    /// ``buffer(_:on:dropped:)`` instead (or a ``HandOff`` outside a signal), whose policy
    /// bounds what waits. nmeastream's own modules cross threads only through those.
    public func receive(on scheduler: some Scheduler) -> Signal {
        Signal { observer in
            observe { event in scheduler.schedule { observer.on(event) } }
        }
    }

    /// Subscribes to this signal, and later disposes the subscription, on `scheduler`.
    ///
    /// Useful when subscribing does slow work (opening a device) that should not block the
    /// subscriber's thread.
    public func subscribe(on scheduler: some Scheduler) -> Signal {
        Signal { observer in
            let subscription = SerialDisposable()
            let start = scheduler.schedule { subscription.inner = observe(observer) }
            return BlockDisposable {
                start.dispose()
                scheduler.schedule { subscription.dispose() }
            }
        }
    }
}
