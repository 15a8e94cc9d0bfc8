/// Anything events are sent to by hand: an ``Observer`` inside a signal's body, a
/// ``Subject`` (replaying or not). Gives them the same shorthands for each kind of event.
public protocol EventReceiver<Value, Failure> {
    /// The values received.
    associatedtype Value: Sendable
    /// The failure received.
    associatedtype Failure: Error
    /// Receives `event`.
    func on(_ event: Event<Value, Failure>)
}

extension EventReceiver {
    /// Sends a value.
    @inlinable
    public func next(_ value: Value) { on(.next(value)) }

    /// Ends the stream with `error`.
    @inlinable
    public func failed(_ error: Failure) { on(.failed(error)) }

    /// Ends the stream normally.
    @inlinable
    public func completed() { on(.completed) }
}

extension Observer: EventReceiver {}
extension Subject: EventReceiver {}
