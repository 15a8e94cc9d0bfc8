import Platform
extension Signal {
    /// Forwards the values of all `signals` as they come; completes when all of them have
    /// completed, and fails (disposing the others) as soon as one fails.
    public static func merge(_ signals: [Signal]) -> Signal {
        Signal { observer in
            guard !signals.isEmpty else {
                observer.completed()
                return nil
            }
            let remaining = Protected(signals.count)
            let subscriptions = CompositeDisposable()
            for signal in signals {
                guard observer.isActive else { break }
                subscriptions += signal.observe { event in
                    guard case .completed = event else { return observer.on(event) }
                    let isLast = remaining.withLock { remaining -> Bool in
                        remaining -= 1
                        return remaining == 0
                    }
                    if isLast { observer.completed() }
                }
            }
            return subscriptions
        }
    }

    /// ``merge(_:)-swift.type.method`` of the signals given.
    public static func merge(_ signals: Signal...) -> Signal {
        merge(signals)
    }

    /// This signal's values and `other`'s, merged (see ``merge(_:)-swift.type.method``).
    public func merge(with other: Signal) -> Signal {
        .merge([self, other])
    }
}
