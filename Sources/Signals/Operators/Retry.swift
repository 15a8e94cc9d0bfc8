import Platform
extension Signal {
    /// On failure, subscribes again, up to `count` more times; then forwards the failure.
    ///
    /// Values from the failed attempts stay sent. A signal that fails at once is retried in a
    /// loop, not by recursion, so a large `count` does not grow the stack.
    public func retry(upTo count: Int) -> Signal {
        precondition(count >= 0, "retry needs a count of 0 or more")
        return Signal { observer in
            let retrier = Retrier(upstream: self, observer: observer, retries: count)
            retrier.run()
            return retrier.subscription
        }
    }
}

/// One ``Signal/retry(upTo:)`` subscription: the retries left and whether an attempt is being
/// subscribed (a failure during it is retried by the loop in ``run()``).
private final class Retrier<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var retries: Int
        var subscribing = false
        var failedWhileSubscribing = false
    }

    let subscription = SerialDisposable()
    private let upstream: Signal<Value, Failure>
    private let observer: Observer<Value, Failure>
    private let state: Protected<State>

    init(upstream: Signal<Value, Failure>, observer: Observer<Value, Failure>, retries: Int) {
        self.upstream = upstream
        self.observer = observer
        state = Protected(State(retries: retries))
    }

    func run() {
        repeat {
            state.withLock { state in
                state.subscribing = true
                state.failedWhileSubscribing = false
            }
            subscription.inner = upstream.observe { [self] event in
                guard case .failed = event else { return observer.on(event) }
                let action = state.withLock { state -> (retry: Bool, now: Bool) in
                    guard state.retries > 0 else { return (false, false) }
                    state.retries -= 1
                    if state.subscribing { state.failedWhileSubscribing = true }
                    return (true, !state.subscribing)
                }
                if !action.retry { observer.on(event) } else if action.now { run() }
            }
        } while state.withLock({ state -> Bool in
            state.subscribing = false
            return state.failedWhileSubscribing
        }) && !subscription.isDisposed
    }
}
