import Platform
extension Signal {
    /// Sends a value only once `interval` has passed without a newer one, on `scheduler`.
    ///
    /// A value still waiting when the signal completes is sent at once, then the completion;
    /// a failure drops it. Timed sends run on `scheduler`.
    public func debounce(_ interval: Duration, on scheduler: some Scheduler) -> Signal {
        Signal { observer in
            let waiting = Protected<(token: Int, value: Value?)>((0, nil))
            let timer = SerialDisposable()
            let subscription = observe { event in
                switch event {
                case .next(let value):
                    let token = waiting.withLock { waiting -> Int in
                        waiting = (waiting.token + 1, value)
                        return waiting.token
                    }
                    timer.inner = scheduler.schedule(after: interval) {
                        let due = waiting.withLock { waiting -> Value? in
                            guard waiting.token == token else { return nil }
                            defer { waiting.value = nil }
                            return waiting.value
                        }
                        if let due { observer.next(due) }
                    }
                case .failed:
                    timer.dispose()
                    observer.on(event)
                case .completed:
                    timer.dispose()
                    let last = waiting.withLock { waiting -> Value? in
                        defer { waiting.value = nil }
                        return waiting.value
                    }
                    if let last { observer.next(last) }
                    observer.completed()
                }
            }
            return CompositeDisposable([subscription, timer])
        }
    }
}
