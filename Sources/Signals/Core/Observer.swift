import Synchronization

/// The receiving end of one subscription: what a signal's body sends events to.
///
/// An observer enforces the event grammar whatever its senders do: it delivers one event at a
/// time (concurrent senders wait their turn; the thread that is delivering may send again,
/// re-entrantly), it delivers nothing after a terminal event, and nothing that starts after
/// the subscription was disposed. An event already being delivered on another thread when
/// the subscription is disposed still finishes.
public final class Observer<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // The handlers are read and written only with `delivery` held; `stopped` is also set
    // without it, by a dispose on another thread, so it is atomic. The delivery path is
    // inlinable so that it is specialised for the caller's types: a generic call costs
    // several metadata lookups per event.
    @usableFromInline let delivery = Lock(recursive: true)
    // Exclusivity is guaranteed by `delivery`; the dynamic checks cost more than the lock.
    @exclusivity(unchecked) @usableFromInline var action: (@Sendable (Event<Value, Failure>) -> Void)?
    @exclusivity(unchecked) @usableFromInline var onTerminate: (@Sendable () -> Void)?
    @usableFromInline let stopped = Atomic(false)
    // Set once, before any event, when a subject that is the only sender adopts this observer.
    @usableFromInline let adopted = Atomic(false)

    /// Creates an observer that hands each event to `action`, and calls `onTerminate` after
    /// delivering a terminal event.
    @inlinable
    public init(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void, onTerminate: (@Sendable () -> Void)? = nil) {
        self.action = action
        self.onTerminate = onTerminate
    }

    /// `false` once a terminal event was sent or the subscription was disposed: further events
    /// are dropped. A body may check it to stop producing early.
    @inlinable
    public var isActive: Bool { !stopped.load(ordering: .acquiring) }

    /// Sends `event`.
    @inlinable
    public func send(_ event: Event<Value, Failure>) {
        guard !event.isTerminal else { return sendTerminal(event) }
        delivery.lock()
        if !stopped.load(ordering: .acquiring), let action { action(event) }
        delivery.unlock()
        // A dispose during the delivery could not take the lock to release the handlers.
        if stopped.load(ordering: .sequentiallyConsistent) { releaseIfIdle() }
    }

    @usableFromInline
    func sendTerminal(_ event: Event<Value, Failure>) {
        delivery.lock()
        guard !stopped.load(ordering: .acquiring), let action else {
            delivery.unlock()
            return
        }
        stopped.store(true, ordering: .sequentiallyConsistent)
        let terminate = onTerminate
        release()
        action(event)
        delivery.unlock()
        terminate?()
    }


    /// Drops every later event and releases the handlers (the subscription was disposed):
    /// at once when no event is being delivered, else when that delivery ends (for an adopted
    /// observer, when its subject removes it). Never waits.
    @usableFromInline
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        if !adopted.load(ordering: .acquiring) { releaseIfIdle() }
    }

    /// Makes a subject this observer's only sender: from now on it delivers with its own lock
    /// held, in place of this observer's (see ``ObserverList``).
    @usableFromInline
    func adoptSender() {
        adopted.store(true, ordering: .releasing)
    }

    /// Sends `event` from the adopting subject, which holds its lock; other observers take
    /// their own lock as usual.
    @inlinable
    func sendFromAdoptedSender(_ event: Event<Value, Failure>) {
        guard adopted.load(ordering: .relaxed) else { return send(event) }
        guard !stopped.load(ordering: .acquiring), let action else { return }
        guard event.isTerminal else { return action(event) }
        stopped.store(true, ordering: .sequentiallyConsistent)
        let terminate = onTerminate
        release()
        action(event)
        terminate?()
    }

    /// Releases the handlers of an adopted observer that its subject removed, under the
    /// subject's lock.
    @usableFromInline
    func releaseAdopted() {
        if adopted.load(ordering: .relaxed) { release() }
    }

    @usableFromInline
    func releaseIfIdle() {
        guard delivery.tryLock() else { return }
        release()
        delivery.unlock()
    }

    @usableFromInline
    func release() {
        action = nil
        onTerminate = nil
    }
}
