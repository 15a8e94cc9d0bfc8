extension Signal {
    /// Forwards the first `count` values, then completes and disposes the upstream.
    public func take(_ count: Int) -> Signal {
        precondition(count >= 0, "take needs a count of 0 or more")
        return Signal { observer in
            guard count > 0 else {
                observer.completed()
                return nil
            }
            let taken = DeliveryState(0)
            return observe { event in
                guard case .next = event else { return observer.on(event) }
                taken.value += 1
                guard taken.value <= count else { return }
                observer.on(event)
                if taken.value == count { observer.completed() }
            }
        }
    }

    /// Drops the first `count` values.
    public func skip(_ count: Int) -> Signal {
        Signal { observer in
            let seen = DeliveryState(0)
            return observe { event in
                if case .next = event, seen.value < count {
                    seen.value += 1
                    return
                }
                observer.on(event)
            }
        }
    }
}
