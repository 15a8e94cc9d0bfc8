import Synchronization
import Platform

/// The receiving end of one subscription: what a signal's body sends events to.
///
/// An observer enforces the event grammar whatever its senders do: it delivers one event at a
/// time (concurrent senders wait their turn; the thread that is delivering may send again,
/// re-entrantly), it delivers nothing after a terminal event, and nothing that starts after
/// the subscription was disposed. An event already being delivered on another thread when
/// the subscription is disposed still finishes.
public final class Observer<Value: Sendable, Failure: Error>: @unchecked Sendable {
    /// What a subscriber handed in, kept apart so that it can be released on dispose even
    /// while a body still holds the observer.
    @usableFromInline
    final class Handlers {
        /// Takes the values when the subscriber gave a handler for them alone (one call less
        /// per value), else `events` takes them.
        @usableFromInline let values: @Sendable (Value) -> Void
        @usableFromInline let takesValues: Bool
        @usableFromInline let events: @Sendable (Event<Value, Failure>) -> Void
        @usableFromInline let onTerminate: (@Sendable () -> Void)?

        @inlinable
        init(values: (@Sendable (Value) -> Void)?, events: @escaping @Sendable (Event<Value, Failure>) -> Void, onTerminate: (@Sendable () -> Void)?) {
            // Not optional: binding an optional closure retains it, on every call. (And no
            // `??`: passing the closure through a generic function wraps it in thunks.)
            if let values {
                self.values = values
                takesValues = true
            } else {
                self.values = { _ in }
                takesValues = false
            }
            self.events = events
            self.onTerminate = onTerminate
        }

        @inlinable
        func handle(_ event: Event<Value, Failure>) {
            if takesValues, case .next(let value) = event {
                values(value)
            } else {
                events(event)
            }
        }
    }

    // `handlers` and `depth` are read and written only with `delivery` held (or, once a
    // subject adopted this observer, that subject's lock); `stopped` is also set without
    // it, by a dispose on another thread, so it is atomic. The delivery path is inlinable
    // so that it is specialised for the caller's types: a generic call costs several
    // metadata lookups per event.
    @usableFromInline let delivery: Lock
    // Exclusivity is guaranteed by the lock; the dynamic checks cost more than the lock.
    // The handlers are held unmanaged (retained once, here) so that calling them costs no
    // reference counting: each atomic retain or release costs about as much as the lock.
    @exclusivity(unchecked) @usableFromInline var handlers: Unmanaged<Handlers>?
    // How many deliveries to the handlers are running (re-entrant sends nest): the
    // handlers are released only when none is, never under a running one.
    @exclusivity(unchecked) @usableFromInline var depth = 0
    @usableFromInline let stopped = Atomic(false)
    // Set once, before any event, when a subject that is the only sender adopts this observer.
    @usableFromInline let adopted = Atomic(false)

    /// Creates an observer that hands each event to `action`, and calls `onTerminate` after
    /// delivering a terminal event.
    @inlinable
    public convenience init(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void, onTerminate: (@Sendable () -> Void)? = nil) {
        self.init(values: nil, events: action, onTerminate: onTerminate, delivery: Lock(recursive: true))
    }

    /// Creates an observer that hands values to `values` (when given) and every other event
    /// to `events`, under `delivery`, a recursive lock it may share: a multicast connection's
    /// upstream observer takes its subject's lock, so that each upstream event costs one
    /// lock, not two.
    @inlinable
    init(
        values: (@Sendable (Value) -> Void)?,
        events: @escaping @Sendable (Event<Value, Failure>) -> Void,
        onTerminate: (@Sendable () -> Void)?,
        delivery: Lock
    ) {
        self.delivery = delivery
        handlers = .passRetained(Handlers(values: values, events: events, onTerminate: onTerminate))
    }

    deinit {
        handlers?.release()
    }

    /// `false` once a terminal event was sent or the subscription was disposed: further events
    /// are dropped. A body may check it to stop producing early.
    @inlinable
    public var isActive: Bool { !stopped.load(ordering: .acquiring) }

    /// Sends `event`.
    @inlinable
    public func on(_ event: Event<Value, Failure>) {
        guard !event.isTerminal else { return sendTerminal(event) }
        delivery.lock()
        if !stopped.load(ordering: .acquiring), let handlers { deliver(event, to: handlers) }
        delivery.unlock()
        // A dispose during the delivery could not release the handlers.
        if stopped.load(ordering: .sequentiallyConsistent) { releaseIfIdle() }
    }

    /// Calls the handlers with the delivery lock held.
    @inlinable
    func deliver(_ event: Event<Value, Failure>, to handlers: Unmanaged<Handlers>) {
        depth += 1
        handlers._withUnsafeGuaranteedRef { $0.handle(event) }
        depth -= 1
    }

    @usableFromInline
    func sendTerminal(_ event: Event<Value, Failure>) {
        delivery.lock()
        guard let handlers = takeHandlersForTerminal() else {
            delivery.unlock()
            return
        }
        handlers.handle(event)
        delivery.unlock()
        handlers.onTerminate?()
    }

    /// Stops this observer for a terminal event, with its lock held, and hands back its
    /// handlers to deliver it (`nil` when it had stopped already).
    @usableFromInline
    func takeHandlersForTerminal() -> Handlers? {
        guard !stopped.load(ordering: .acquiring), let handlers else { return nil }
        stopped.store(true, ordering: .sequentiallyConsistent)
        self.handlers = nil
        return handlers.takeRetainedValue()
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
        guard adopted.load(ordering: .relaxed) else { return on(event) }
        guard !event.isTerminal else { return sendTerminalFromAdoptedSender(event) }
        guard !stopped.load(ordering: .acquiring), let handlers else { return }
        deliver(event, to: handlers)
        // Removed by a handler during the delivery: release now that none runs.
        if depth == 0, stopped.load(ordering: .acquiring) { release() }
    }

    @usableFromInline
    func sendTerminalFromAdoptedSender(_ event: Event<Value, Failure>) {
        guard let handlers = takeHandlersForTerminal() else { return }
        handlers.handle(event)
        handlers.onTerminate?()
    }

    /// Releases the handlers of an adopted observer that its subject removed, under the
    /// subject's lock (or when the delivery running now ends).
    @usableFromInline
    func releaseAdopted() {
        if adopted.load(ordering: .relaxed), depth == 0 { release() }
    }

    @usableFromInline
    func releaseIfIdle() {
        guard delivery.tryLock() else { return }
        if depth == 0 { release() }
        delivery.unlock()
    }

    @usableFromInline
    func release() {
        handlers?.release()
        handlers = nil
    }
}
