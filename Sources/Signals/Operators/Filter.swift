extension Signal {
    /// Forwards only the values for which `isIncluded` is true.
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { observer in
            observe { event in
                if case .next(let value) = event, !isIncluded(value) { return }
                observer.on(event)
            }
        }
    }
}
