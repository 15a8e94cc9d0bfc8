/// Anything events are sent to by hand: an ``Observer`` inside a signal's body, a
/// ``Subject`` (replaying or not). Gives them the same shorthands for each kind of event.
public protocol EventReceiver<Value, Failure> {
    /// The values received.
    associatedtype Value: Sendable
    /// The failure received.
    associatedtype Failure: Error
    /// Receives `event`.
    func send(_ event: Event<Value, Failure>)
}

extension EventReceiver {
    /// Sends a value.
    @inlinable
    public func send(_ value: Value) { send(.next(value)) }

    /// Ends the stream with `error`.
    @inlinable
    public func send(error: Failure) { send(.error(error)) }

    /// Ends the stream normally.
    @inlinable
    public func sendCompleted() { send(.completed) }
}

extension Observer: EventReceiver {}
extension Subject: EventReceiver {}
