import Platform
/// One upstream subscription shared through a subject, connected by hand.
///
/// Observers subscribe to ``signal``; ``connect()`` subscribes the upstream once and forwards
/// its events to them. Disposing the connection's handle unsubscribes the upstream. Each
/// connection uses a fresh subject: after a disconnect, or after the upstream completed or
/// failed, observers that subscribe next join the next connection (and its replay only).
/// There is one upstream subscription at a time: a connect waits for the previous disconnect.
///
/// The paths that events take are inlinable, so that they are specialised for the caller's
/// types (see ``Observer``).
public final class MulticastConnection<Value: Sendable, Failure: Error>: Sendable {
    /// What deciding a connect produced: the connection's generation and subject, and the
    /// ticket of the operation that subscribes the upstream (`nil` when it was connected).
    @usableFromInline
    struct Prepared {
        @usableFromInline var generation: Int
        @usableFromInline var subject: SubjectHandle<Value, Failure>
        @usableFromInline var ticket: ConnectDisconnectQueue.Ticket?

        @inlinable
        init(generation: Int, subject: SubjectHandle<Value, Failure>, ticket: ConnectDisconnectQueue.Ticket?) {
            self.generation = generation
            self.subject = subject
            self.ticket = ticket
        }
    }

    @usableFromInline let source: Signal<Value, Failure>
    @usableFromInline let makeSubject: @Sendable () -> SubjectHandle<Value, Failure>
    @usableFromInline let operations = ConnectDisconnectQueue()
    @usableFromInline let state = Protected(State())

    @usableFromInline
    struct State {
        /// `nil` between a disconnect and the next observer or connect.
        @usableFromInline var subject: SubjectHandle<Value, Failure>?
        @usableFromInline var generation = 0
        @usableFromInline var connected = false
        @usableFromInline var upstream: (generation: Int, disposable: Disposable)?

        @inlinable
        init() {}
    }

    @inlinable
    init(source: Signal<Value, Failure>, makeSubject: @escaping @Sendable () -> SubjectHandle<Value, Failure>) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The shared events: observers join the current (or next) connection.
    @inlinable
    public var signal: Signal<Value, Failure> { signal(replayingLatest: false) }

    /// ``signal``, whose observers also get the latest value that the connection's subject
    /// kept first, when `replayingLatest` is true (see ``Subject/init(keepingLatest:)``).
    @inlinable
    public func signal(replayingLatest: Bool) -> Signal<Value, Failure> {
        Signal { [self] observer in
            currentSubject().attach(observer, replayingLatest)
        }
    }

    /// Whether the upstream is connected (or being connected) now.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Connects the upstream unless it is connected already, and returns once it is.
    ///
    /// - Returns: the handle of the current connection: disposing it disconnects that
    ///   connection, and never a later one.
    @inlinable
    @discardableResult
    public func connect() -> Disposable {
        let prepared = prepareConnect()
        if let ticket = prepared.ticket { operations.complete(through: ticket) }
        let generation = prepared.generation
        return BlockDisposable { [weak self] in self?.disconnect(generation) }
    }

    @inlinable
    func currentSubject() -> SubjectHandle<Value, Failure> {
        state.withLock { state in
            if let subject = state.subject { return subject }
            let fresh = makeSubject()
            state.subject = fresh
            return fresh
        }
    }

    /// Decides a connect and queues it without running it: `attach` runs first, with the
    /// connection's subject, before the upstream can send anything. Runs no user code but
    /// `makeSubject` and `attach`, so it may be called inside the caller's critical section;
    /// the caller then runs the ticket with ``ConnectDisconnectQueue/complete(through:wait:)``.
    @inlinable
    func prepareConnect(attach: ((SubjectHandle<Value, Failure>) -> Void)? = nil) -> Prepared {
        state.withLock { state in
            let subject = state.subject ?? makeSubject()
            state.subject = subject
            attach?(subject)
            if state.connected { return Prepared(generation: state.generation, subject: subject, ticket: nil) }
            state.generation += 1
            state.connected = true
            let generation = state.generation
            let ticket = operations.enqueue { [self] in
                // Every upstream event takes the subject's lock to be delivered: taking it
                // first, for the upstream observer too, makes that one lock per event.
                let delivery = subject.lock ?? Lock(recursive: true)
                let disposable = source.observe(delivery: delivery, values: nil, events: subject.send) { [weak self] in
                    self?.disconnect(generation, wait: false)
                }
                self.state.withLock { $0.upstream = (generation, disposable) }
            }
            return Prepared(generation: generation, subject: subject, ticket: ticket)
        }
    }

    /// Decides the end of connection `generation`, if it is still the current one, and queues
    /// the operation that unsubscribes the upstream. Runs no user code.
    @usableFromInline
    func prepareDisconnect(_ generation: Int) -> ConnectDisconnectQueue.Ticket? {
        state.withLock { state in
            guard state.connected, state.generation == generation else { return nil }
            state.connected = false
            state.subject = nil
            return operations.enqueue { [self] in
                let disposable = self.state.withLock { state -> Disposable? in
                    guard let upstream = state.upstream, upstream.generation == generation else { return nil }
                    state.upstream = nil
                    return upstream.disposable
                }
                disposable?.dispose()
            }
        }
    }

    /// The subject of connection `generation` if it is the current one and still connected.
    @usableFromInline
    func subject(ofGeneration generation: Int) -> SubjectHandle<Value, Failure>? {
        state.withLock { $0.connected && $0.generation == generation ? $0.subject : nil }
    }

    /// Ends connection `generation`, if it is still the current one, and returns once the
    /// upstream is unsubscribed (with `wait` false, possibly before, when another thread is
    /// running connect and disconnect operations).
    @usableFromInline
    func disconnect(_ generation: Int, wait: Bool = true) {
        if let ticket = prepareDisconnect(generation) { operations.complete(through: ticket, wait: wait) }
    }
}

extension Signal {
    /// Shares one subscription of this signal among observers through the subject that
    /// `makeSubject` creates for each connection; nothing happens until
    /// ``MulticastConnection/connect()``.
    ///
    /// `makeSubject` runs inside the connection's critical section, and so does attaching the
    /// first observer of a ``MulticastConnection/refCount()`` period to the fresh subject: it
    /// must only create and return a subject (not subscribe, send or wait).
    @inlinable
    public func multicast<Subject: EventSubject>(
        _ makeSubject: @escaping @Sendable () -> Subject
    ) -> MulticastConnection<Value, Failure> where Subject.Value == Value, Subject.Failure == Failure {
        MulticastConnection(source: self, makeSubject: { SubjectHandle(makeSubject()) })
    }
}
