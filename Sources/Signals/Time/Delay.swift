extension Signal {
    /// Sends each value and the completion `interval` later, on `scheduler`; a failure is
    /// sent at once (dropping the values still waiting).
    public func delay(_ interval: Duration, on scheduler: some Scheduler) -> Signal {
        Signal { observer in
            let timers = ScheduledWork()
            let subscription = observe { event in
                if case .failed = event { return observer.on(event) }
                timers.add(scheduler.schedule(after: interval) { observer.on(event) })
            }
            return CompositeDisposable([subscription, timers])
        }
    }
}
