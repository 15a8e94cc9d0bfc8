/// The receiving end of one subscription: what a signal's body sends events to.
///
/// An observer enforces the event grammar whatever its senders do: it delivers one event at a
/// time (concurrent senders wait their turn; the thread that is delivering may send again,
/// re-entrantly), it delivers nothing after a terminal event, and nothing that starts after
/// the subscription was disposed. An event already being delivered on another thread when
/// the subscription is disposed still finishes.
public final class Observer<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var action: (@Sendable (Event<Value, Failure>) -> Void)?
        var onTerminate: (@Sendable () -> Void)?
    }

    private let delivery = Lock(recursive: true)
    private let state: Protected<State>

    /// Creates an observer that hands each event to `action`, and calls `onTerminate` after
    /// delivering a terminal event.
    public init(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void, onTerminate: (@Sendable () -> Void)? = nil) {
        state = Protected(State(action: action, onTerminate: onTerminate))
    }

    /// `false` once a terminal event was sent or the subscription was disposed: further events
    /// are dropped. A body may check it to stop producing early.
    public var isActive: Bool { state.withLock { $0.action != nil } }

    /// Sends `event`.
    public func send(_ event: Event<Value, Failure>) {
        var terminate: (@Sendable () -> Void)?
        delivery.lock()
        let action = state.withLock { state -> (@Sendable (Event<Value, Failure>) -> Void)? in
            let action = state.action
            if event.isTerminal {
                terminate = state.onTerminate
                state = State()
            }
            return action
        }
        if let action { action(event) }
        delivery.unlock()
        terminate?()
    }

    /// Sends a value.
    public func send(_ value: Value) { send(.next(value)) }

    /// Ends the signal with `error`.
    public func send(error: Failure) { send(.error(error)) }

    /// Ends the signal normally.
    public func sendCompleted() { send(.completed) }

    /// Drops every later event and releases the handlers (the subscription was disposed).
    func stop() {
        state.withLock { $0 = State() }
    }
}
