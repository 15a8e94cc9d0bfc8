/// One upstream subscription shared through a subject, connected by hand.
///
/// Observers subscribe to ``signal``; ``connect()`` subscribes the upstream once and forwards
/// its events to them. Disposing the connection's handle unsubscribes the upstream. Each
/// connection uses a fresh subject: after a disconnect, or after the upstream completed or
/// failed, observers that subscribe next join the next connection (and its replay only).
/// There is one upstream subscription at a time: a connect waits for the previous disconnect.
public final class MulticastConnection<Value: Sendable, Failure: Error>: @unchecked Sendable {
    /// What deciding a connect produced: the connection's generation and subject, and the
    /// ticket of the operation that subscribes the upstream (`nil` when it was connected).
    struct Prepared {
        var generation: Int
        var subject: any EventSubject<Value, Failure>
        var ticket: SerialOperations.Ticket?
    }

    private let source: Signal<Value, Failure>
    private let makeSubject: @Sendable () -> any EventSubject<Value, Failure>
    let operations = SerialOperations()
    private let lock = Lock()
    // Guarded by `lock`. `subject` is `nil` between a disconnect and the next observer or connect.
    private var subject: (any EventSubject<Value, Failure>)?
    private var generation = 0
    private var connected = false
    private var upstream: (generation: Int, disposable: Disposable)?

    init(source: Signal<Value, Failure>, makeSubject: @escaping @Sendable () -> any EventSubject<Value, Failure>) {
        self.source = source
        self.makeSubject = makeSubject
    }

    /// The shared events: observers join the current (or next) connection.
    public var signal: Signal<Value, Failure> {
        Signal { [self] observer in
            currentSubject().signal.observe(observer)
        }
    }

    /// Whether the upstream is connected (or being connected) now.
    public var isConnected: Bool { lock.withLock { connected } }

    /// Connects the upstream unless it is connected already, and returns once it is.
    ///
    /// - Returns: the handle of the current connection: disposing it disconnects that
    ///   connection, and never a later one.
    @discardableResult
    public func connect() -> Disposable {
        let prepared = prepareConnect()
        if let ticket = prepared.ticket { operations.complete(through: ticket) }
        let generation = prepared.generation
        return ActionDisposable { [weak self] in self?.disconnect(generation) }
    }

    private func currentSubject() -> any EventSubject<Value, Failure> {
        lock.withLock {
            if let subject { return subject }
            let fresh = makeSubject()
            subject = fresh
            return fresh
        }
    }

    /// Decides a connect and queues it without running it: `attach` runs first, with the
    /// connection's subject, before the upstream can send anything. Runs no user code but
    /// `makeSubject` and `attach`, so it may be called inside the caller's critical section;
    /// the caller then runs the ticket with ``SerialOperations/complete(through:)``.
    func prepareConnect(attach: ((any EventSubject<Value, Failure>) -> Void)? = nil) -> Prepared {
        lock.withLock {
            let subject = self.subject ?? makeSubject()
            self.subject = subject
            attach?(subject)
            if connected { return Prepared(generation: generation, subject: subject, ticket: nil) }
            generation += 1
            connected = true
            let generation = self.generation
            let ticket = operations.enqueue { [self] in
                let disposable = source.observe { [weak self] event in
                    subject.send(event)
                    if event.isTerminal { self?.disconnect(generation, wait: false) }
                }
                lock.withLock { upstream = (generation, disposable) }
            }
            return Prepared(generation: generation, subject: subject, ticket: ticket)
        }
    }

    /// Decides the end of connection `generation`, if it is still the current one, and queues
    /// the operation that unsubscribes the upstream. Runs no user code.
    func prepareDisconnect(_ generation: Int) -> SerialOperations.Ticket? {
        lock.withLock {
            guard connected, self.generation == generation else { return nil }
            connected = false
            subject = nil
            return operations.enqueue { [self] in
                let disposable = lock.withLock { () -> Disposable? in
                    guard let upstream, upstream.generation == generation else { return nil }
                    self.upstream = nil
                    return upstream.disposable
                }
                disposable?.dispose()
            }
        }
    }

    /// Whether connection `generation` is the current one and still connected.
    func isConnected(generation: Int) -> Bool {
        lock.withLock { connected && self.generation == generation }
    }

    /// The subject of the current connection.
    func subject(ofGeneration generation: Int) -> (any EventSubject<Value, Failure>)? {
        lock.withLock { connected && self.generation == generation ? subject : nil }
    }

    /// Ends connection `generation`, if it is still the current one, and returns once the
    /// upstream is unsubscribed (with `wait` false, possibly before, when another thread is
    /// running connect and disconnect operations).
    func disconnect(_ generation: Int, wait: Bool = true) {
        if let ticket = prepareDisconnect(generation) { operations.complete(through: ticket, wait: wait) }
    }
}

extension Signal {
    /// Shares one subscription of this signal among observers through the subject that
    /// `makeSubject` creates for each connection; nothing happens until
    /// ``MulticastConnection/connect()``.
    ///
    /// `makeSubject` runs inside the connection's critical section: it must only create and
    /// return a subject (not subscribe, send or wait).
    public func multicast(_ makeSubject: @escaping @Sendable () -> any EventSubject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        MulticastConnection(source: self, makeSubject: makeSubject)
    }
}
