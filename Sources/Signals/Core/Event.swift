/// What a signal sends: any number of values, then at most one terminal event.
///
/// Every observer sees `next* (failed | completed)?`: nothing after a terminal event.
public enum Event<Value: Sendable, Failure: Error>: Sendable {
    /// A value.
    case next(Value)
    /// The signal failed; nothing follows.
    case failed(Failure)
    /// The signal ended normally; nothing follows.
    case completed

    /// `true` for ``failed(_:)`` and ``completed``.
    @inlinable
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value of a ``next(_:)`` event, else `nil`.
    @inlinable
    public var value: Value? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The same event with its value transformed.
    @inlinable
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> Event<Other, Failure> {
        switch self {
        case .next(let value): .next(try transform(value))
        case .failed(let error): .failed(error)
        case .completed: .completed
        }
    }

    /// The same event with its failure transformed.
    @inlinable
    public func mapError<Other: Error>(_ transform: (Failure) -> Other) -> Event<Value, Other> {
        switch self {
        case .next(let value): .next(value)
        case .failed(let error): .failed(transform(error))
        case .completed: .completed
        }
    }
}
