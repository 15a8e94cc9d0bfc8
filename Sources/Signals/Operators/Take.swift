extension Signal {
    /// Forwards the first `count` values, then completes and disposes the upstream.
    public func take(_ count: Int) -> Signal {
        precondition(count >= 0, "take needs a count of 0 or more")
        return Signal { observer in
            guard count > 0 else {
                observer.sendCompleted()
                return nil
            }
            let taken = Protected(0)
            return observe { event in
                guard case .next = event else { return observer.send(event) }
                let index = taken.withLock { taken -> Int in
                    taken += 1
                    return taken
                }
                guard index <= count else { return }
                observer.send(event)
                if index == count { observer.sendCompleted() }
            }
        }
    }

    /// Drops the first `count` values.
    public func skip(_ count: Int) -> Signal {
        Signal { observer in
            let seen = Protected(0)
            return observe { event in
                if case .next = event {
                    let skip = seen.withLock { seen -> Bool in
                        seen += 1
                        return seen <= count
                    }
                    if skip { return }
                }
                observer.send(event)
            }
        }
    }
}
