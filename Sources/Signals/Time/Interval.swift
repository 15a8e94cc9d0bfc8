extension Signal where Value == Int {
    /// Sends 0, 1, 2... every `period` on `scheduler`, starting one period after the
    /// subscription; never completes. Ticks are timed from the start, so they do not drift.
    public static func interval(_ period: Duration, on scheduler: some Scheduler) -> Signal {
        precondition(period > .zero, "an interval needs a period above zero")
        return Signal { observer in
            let start = scheduler.now
            let timer = SerialDisposable()
            @Sendable func schedule(_ tick: Int) {
                let due = start + period * (tick + 1)
                timer.inner = scheduler.schedule(after: due - scheduler.now) {
                    guard observer.isActive else { return }
                    observer.next(tick)
                    schedule(tick + 1)
                }
            }
            schedule(0)
            return timer
        }
    }
}
