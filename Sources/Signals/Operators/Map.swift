extension Signal {
    /// Transforms each value.
    @inlinable
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Signal<Other, Failure> {
        Signal<Other, Failure> { observer in
            observe { observer.send($0.map(transform)) }
        }
    }

    /// Replaces each value with `value`.
    public func mapReplace<Other: Sendable>(_ value: Other) -> Signal<Other, Failure> {
        map { _ in value }
    }

    /// Transforms each value and drops the `nil` results.
    @inlinable
    public func compactMap<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other?) -> Signal<Other, Failure> {
        Signal<Other, Failure> { observer in
            observe { event in
                switch event {
                case .next(let value): if let other = transform(value) { observer.send(other) }
                case .error(let error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                }
            }
        }
    }
}
