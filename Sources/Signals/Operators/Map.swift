extension Signal {
    /// Transforms each value.
    @inlinable
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Signal<Other, Failure> {
        Signal<Other, Failure> { observer in
            observe { observer.on($0.map(transform)) }
        }
    }

    /// Replaces each value with `value`.
    public func replaceElements<Other: Sendable>(with value: Other) -> Signal<Other, Failure> {
        map { _ in value }
    }

    /// Transforms each value and drops the `nil` results.
    @inlinable
    public func compactMap<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other?) -> Signal<Other, Failure> {
        Signal<Other, Failure> { observer in
            observe { event in
                switch event {
                case .next(let value): if let other = transform(value) { observer.next(other) }
                case .failed(let error): observer.failed(error)
                case .completed: observer.completed()
                }
            }
        }
    }
}
