import Platform
/// A hot signal that you drive by hand: every current observer receives what you send.
///
/// A subject delivers one event at a time, to its observers in the order they subscribed,
/// under its own recursive lock: a handler may send to the same subject (the nested event
/// is delivered at once, from inside the first), subscribe to it or dispose. A handler must
/// not wait for another thread that sends to the same subject. After a terminal event, the
/// subject keeps it: later observers receive it at once, and later sends are dropped.
///
/// A subject made with a replay capacity (`Subject(capacity: n)`) also keeps its last values and
/// replays them to each new observer before live events. Replay and live delivery happen
/// under the same lock, so an observer sees the values in the order they were sent, with
/// none missing or repeated between the replayed and the live ones.
///
/// A subject made with `Subject(keepingLatest:)` keeps, as state, the latest value its test
/// accepts, and gives it only to the observers that ask for it (``signal(replayingLatest:)``),
/// under the same lock: one subject serves observers that want the latest value first and
/// observers that want live events only.
public final class Subject<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline let lock = Lock(recursive: true)
    /// How many values are kept for replay (0, a plain subject, keeps none).
    public let replayCapacity: Int
    // Guarded by `lock`, which also guarantees exclusive access (the dynamic checks would
    // cost more than the lock).
    @exclusivity(unchecked) @usableFromInline var buffer: [Value] = []
    @exclusivity(unchecked) @usableFromInline var observers = ObserverList<Value, Failure>()
    @exclusivity(unchecked) @usableFromInline var terminal: Event<Value, Failure>?
    /// Which values are kept as the latest (`nil`: none is).
    @usableFromInline let keepsLatest: (@Sendable (Value) -> Bool)?
    @exclusivity(unchecked) @usableFromInline var latest: Value?

    /// Creates a subject with no observers, that replays nothing.
    @inlinable
    public init() {
        replayCapacity = 0
        keepsLatest = nil
    }

    /// Creates a subject that replays up to `capacity` values (`Int.max` for all of them).
    public init(capacity: Int) {
        precondition(capacity >= 0, "a replay capacity cannot be negative")
        replayCapacity = capacity
        keepsLatest = nil
    }

    /// Creates a subject that keeps the latest value for which `isKept` is true and gives it
    /// first to each observer of ``signal(replayingLatest:)`` (with `true`); it replays nothing
    /// to the others. `isKept` runs on every value sent, under the subject's lock: keep it cheap.
    public init(keepingLatest isKept: @escaping @Sendable (Value) -> Bool) {
        replayCapacity = 0
        keepsLatest = isKept
    }

    /// The subject as a signal: each subscription gets the replay, if any, then live events.
    @inlinable
    public var signal: Signal<Value, Failure> {
        Signal { [self] observer in attach(observer, exclusive: true) }
    }

    /// ``signal``, whose subscriptions also get the latest kept value first when
    /// `replayingLatest` is true (see ``init(keepingLatest:)``; nothing for a subject made
    /// without it).
    @inlinable
    public func signal(replayingLatest: Bool) -> Signal<Value, Failure> {
        Signal { [self] observer in attach(observer, exclusive: true, replayingLatest: replayingLatest) }
    }

    /// The latest value kept (see ``init(keepingLatest:)``); `nil` before one, and always for
    /// a subject made without it.
    public var latestValue: Value? { lock.withLock { latest } }

    /// Replays to `observer`, then adds it; `exclusive` when this subject is its only sender
    /// (see ``ObserverList``); `replayingLatest` to give it the latest kept value first.
    @inlinable
    func attach(_ observer: Observer<Value, Failure>, exclusive: Bool, replayingLatest: Bool = false) -> Disposable? {
        lock.lock()
        defer { lock.unlock() }
        if replayingLatest, let latest { observer.next(latest) }
        for value in buffer { observer.next(value) }
        if let terminal {
            observer.on(terminal)
            return nil
        }
        let token = observers.append(observer, exclusive: exclusive)
        return BlockDisposable { [weak self] in self?.remove(token) }
    }

    /// Sends `event` to every observer, keeping a value for replay; a terminal event ends the
    /// subject.
    @inlinable
    public func on(_ event: Event<Value, Failure>) {
        lock.lock()
        defer { lock.unlock() }
        guard terminal == nil else { return }
        switch event {
        case .next(let value):
            if let keepsLatest, keepsLatest(value) { latest = value }
            if replayCapacity > 0 {
                if buffer.count == replayCapacity { buffer.removeFirst() }
                buffer.append(value)
            }
        case .failed, .completed:
            terminal = event
        }
        guard !event.isTerminal else {
            return ObserverList.deliver(event, to: observers.removeAll())
        }
        observers.deliveries += 1
        let count = observers.entries.count
        var index = 0
        while let target = observers.observer(at: index, of: count) {
            target?._withUnsafeGuaranteedRef { $0.sendFromAdoptedSender(event) }
            index += 1
        }
        observers.endDelivery()
    }

    /// The values kept for replay, oldest first.
    public var replayValues: [Value] { lock.withLock { buffer } }

    /// The number of observers subscribed now.
    public var observerCount: Int { lock.withLock { observers.count } }

    @usableFromInline
    func remove(_ token: Int) {
        lock.withLock { observers.remove(token) }
    }
}
