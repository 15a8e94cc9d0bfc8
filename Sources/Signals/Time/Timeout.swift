import Platform
extension Signal {
    /// Fails with `error` when `interval` passes, on `scheduler`'s clock, without a value:
    /// counted from the subscription, then from each value. Disposes the upstream then.
    ///
    /// Use it for "no fix within 30 seconds" as well as for "the receiver went silent".
    public func timeout(after interval: Duration, raising error: Failure, on scheduler: some Scheduler) -> Signal {
        Signal { observer in
            let latest = Protected(0)
            let timer = SerialDisposable()
            @Sendable func arm() {
                let token = latest.withLock { latest -> Int in
                    latest += 1
                    return latest
                }
                timer.inner = scheduler.schedule(after: interval) {
                    if latest.withLock({ $0 == token }) { observer.failed(error) }
                }
            }
            arm()
            let subscription = observe { event in
                if case .next = event { arm() } else { timer.dispose() }
                observer.on(event)
            }
            return CompositeDisposable([timer, subscription])
        }
    }
}
