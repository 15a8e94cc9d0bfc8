/// A ``Subject`` that remembers its last `capacity` values and replays them, then its terminal
/// event if any, to every new observer before live events.
///
/// Replay and live delivery happen under the same lock, so an observer sees the values in the
/// order they were sent, with none missing or repeated between the replayed and the live ones.
public final class ReplaySubject<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline let lock = Lock(recursive: true)
    /// How many values are kept for replay (0 keeps none: a plain subject).
    public let capacity: Int
    // Guarded by `lock`.
    @usableFromInline var buffer: [Value] = []
    @usableFromInline var observers = ObserverList<Value, Failure>()
    @usableFromInline var terminal: Event<Value, Failure>?

    /// Creates a subject that replays up to `capacity` values (`Int.max` for all of them).
    public init(capacity: Int) {
        precondition(capacity >= 0, "a replay capacity cannot be negative")
        self.capacity = capacity
    }

    /// The subject as a signal: each subscription gets the replay, then live events.
    @inlinable
    public var signal: Signal<Value, Failure> {
        Signal { [self] observer in attach(observer, exclusive: true) }
    }

    /// Adds `observer` itself to the observers (see ``EventSubject/attach(_:)``).
    @inlinable
    public func attach(_ observer: Observer<Value, Failure>) -> Disposable? {
        attach(observer, exclusive: false)
    }

    /// Adds `observer`; `exclusive` when this subject is its only sender (see ``ObserverList``).
    @inlinable
    func attach(_ observer: Observer<Value, Failure>, exclusive: Bool) -> Disposable? {
        lock.lock()
        defer { lock.unlock() }
        for value in buffer { observer.send(value) }
        if let terminal {
            observer.send(terminal)
            return nil
        }
        let token = observers.append(observer, exclusive: exclusive)
        return ActionDisposable { [weak self] in self?.remove(token) }
    }

    /// The values kept for replay, oldest first.
    public var replayValues: [Value] { lock.withLock { buffer } }

    /// Sends `event` to every observer and keeps a value for replay.
    @inlinable
    public func send(_ event: Event<Value, Failure>) {
        lock.lock()
        defer { lock.unlock() }
        guard terminal == nil else { return }
        switch event {
        case .next(let value):
            if capacity > 0 {
                if buffer.count == capacity { buffer.removeFirst() }
                buffer.append(value)
            }
        case .error, .completed:
            terminal = event
        }
        let current = observers.entries
        if event.isTerminal { observers = ObserverList() }
        ObserverList.deliver(event, to: current)
    }


    @usableFromInline
    func remove(_ token: Int) {
        lock.withLock { observers.remove(token) }
    }
}
