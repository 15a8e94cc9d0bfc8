extension Signal {
    /// Drops each value that `isEquivalent` finds equal to the value sent before it.
    public func removeDuplicates(by isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        Signal { observer in
            let previous = DeliveryState<Value?>(nil)
            return observe { event in
                if case .next(let value) = event {
                    let last = previous.value
                    previous.value = value
                    if let last, isEquivalent(last, value) { return }
                }
                observer.on(event)
            }
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops each value equal to the value sent before it.
    public func removeDuplicates() -> Signal {
        removeDuplicates(by: ==)
    }
}
