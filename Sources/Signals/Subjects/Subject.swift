/// A hot signal that you drive by hand: every current observer receives what you send.
///
/// A subject delivers one event at a time, to its observers in the order they subscribed,
/// under its own recursive lock: a handler may send to the same subject (the nested event
/// is delivered at once, from inside the first), subscribe to it or dispose. A handler must
/// not wait for another thread that sends to the same subject. After a terminal event, the
/// subject keeps it: later observers receive it at once, and later sends are dropped.
public final class Subject<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline let lock = Lock(recursive: true)
    // Guarded by `lock`.
    @usableFromInline var observers = ObserverList<Value, Failure>()
    @usableFromInline var terminal: Event<Value, Failure>?

    /// Creates a subject with no observers.
    @inlinable
    public init() {}

    /// The subject as a signal: each subscription adds an observer.
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
        if let terminal {
            observer.send(terminal)
            return nil
        }
        let token = observers.append(observer, exclusive: exclusive)
        return ActionDisposable { [weak self] in self?.remove(token) }
    }

    /// Sends `event` to every observer; a terminal event ends the subject.
    @inlinable
    public func send(_ event: Event<Value, Failure>) {
        lock.lock()
        defer { lock.unlock() }
        guard terminal == nil else { return }
        let current = observers.entries
        if event.isTerminal {
            terminal = event
            observers = ObserverList()
        }
        ObserverList.deliver(event, to: current)
    }


    /// The number of observers subscribed now.
    public var observerCount: Int { lock.withLock { observers.count } }

    @usableFromInline
    func remove(_ token: Int) {
        lock.withLock { observers.remove(token) }
    }
}
