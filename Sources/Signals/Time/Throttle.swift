import Platform
extension Signal {
    /// Sends at most one value per `interval`, on `scheduler`'s clock: a value that comes
    /// when the last one sent is at least `interval` old goes out at once; values that come
    /// sooner wait, and only the newest of them is sent when the interval is up.
    ///
    /// A value still waiting when the signal completes is sent at its time, then the
    /// completion; a failure is sent at once. Timed sends run on `scheduler`.
    public func throttle(_ interval: Duration, on scheduler: some Scheduler) -> Signal {
        Signal { observer in
            let state = Protected(ThrottleState<Value>())
            let timer = SerialDisposable()
            @Sendable func flush() {
                let (value, completed) = state.withLock { state in
                    defer {
                        state.waiting = nil
                        state.timerPending = false
                        state.lastSent = scheduler.now
                    }
                    return (state.waiting, state.completedWhileWaiting)
                }
                if let value { observer.next(value) }
                if completed { observer.completed() }
            }
            let subscription = observe { event in
                switch event {
                case .next(let value):
                    let now = scheduler.now
                    let wait = state.withLock { state -> Duration? in
                        if state.timerPending {
                            state.waiting = value
                            return nil
                        }
                        if let last = state.lastSent, now - last < interval {
                            state.waiting = value
                            state.timerPending = true
                            return interval - (now - last)
                        }
                        state.lastSent = now
                        return .zero
                    }
                    if wait == .zero {
                        observer.next(value)
                    } else if let wait {
                        timer.inner = scheduler.schedule(after: wait, flush)
                    }
                case .failed:
                    observer.on(event)
                case .completed:
                    let waiting = state.withLock { state in
                        state.completedWhileWaiting = state.timerPending
                        return state.timerPending
                    }
                    if !waiting { observer.completed() }
                }
            }
            return CompositeDisposable([subscription, timer])
        }
    }
}

private struct ThrottleState<Value> {
    var lastSent: Duration?
    var waiting: Value?
    var timerPending = false
    var completedWhileWaiting = false
}
