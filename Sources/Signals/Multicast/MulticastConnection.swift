/// One upstream subscription shared through a subject, connected by hand.
///
/// Observers subscribe to ``signal``; ``connect()`` subscribes the upstream once and forwards
/// its events to them. Disposing the connection's handle unsubscribes the upstream. Each
/// connection uses a fresh subject: after a disconnect, or after the upstream completed or
/// failed, observers that subscribe next join the next connection (and its replay only).
/// There is one upstream subscription at a time: a connect waits for the previous disconnect.
public final class MulticastConnection<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let source: Signal<Value, Failure>
    private let makeSubject: @Sendable () -> any EventSubject<Value, Failure>
    private let operations = SerialOperations()
    private let lock = Lock()
    // Guarded by `lock`.
    private var subject: any EventSubject<Value, Failure>
    private var generation = 0
    private var connected = false
    private var upstream: (generation: Int, disposable: Disposable)?

    init(source: Signal<Value, Failure>, makeSubject: @escaping @Sendable () -> any EventSubject<Value, Failure>) {
        self.source = source
        self.makeSubject = makeSubject
        subject = makeSubject()
    }

    /// The shared events: observers join the current (or next) connection.
    public var signal: Signal<Value, Failure> {
        Signal { [self] observer in
            let subject = lock.withLock { self.subject }
            return subject.signal.observe(observer)
        }
    }

    /// Whether the upstream is connected (or being connected) now.
    public var isConnected: Bool { lock.withLock { connected } }

    /// Connects the upstream unless it is connected already.
    ///
    /// - Returns: the handle of the current connection: disposing it disconnects that
    ///   connection, and never a later one.
    @discardableResult
    public func connect() -> Disposable {
        let connection = prepareConnect()
        connection.start?()
        let generation = connection.generation
        return ActionDisposable { [weak self] in self?.disconnect(generation) }
    }

    /// Decides a connect without running anything: returns the generation and subject of the
    /// current connection and, when this call made it, the work that subscribes the upstream
    /// (to be run outside every lock). Takes only this connection's lock and runs no user code.
    func prepareConnect() -> (generation: Int, subject: any EventSubject<Value, Failure>, start: (@Sendable () -> Void)?) {
        let (generation, subject, isNew) = lock.withLock { () -> (Int, any EventSubject<Value, Failure>, Bool) in
            if connected { return (self.generation, self.subject, false) }
            self.generation += 1
            connected = true
            return (self.generation, self.subject, true)
        }
        guard isNew else { return (generation, subject, nil) }
        return (generation, subject, { [self] in
            operations.run { [self] in
                let disposable = source.observe { [weak self] event in
                    subject.send(event)
                    if event.isTerminal { self?.disconnect(generation) }
                }
                lock.withLock { upstream = (generation, disposable) }
            }
        })
    }

    /// Whether connection `generation` is the current one and still connected.
    func isConnected(generation: Int) -> Bool {
        lock.withLock { connected && self.generation == generation }
    }

    /// Ends connection `generation`, if it is still the current one.
    func disconnect(_ generation: Int) {
        let fresh = makeSubject()
        let ended = lock.withLock { () -> Bool in
            guard connected, self.generation == generation else { return false }
            connected = false
            subject = fresh
            return true
        }
        guard ended else { return }
        operations.run { [self] in
            let disposable = lock.withLock { () -> Disposable? in
                guard let upstream, upstream.generation == generation else { return nil }
                self.upstream = nil
                return upstream.disposable
            }
            disposable?.dispose()
        }
    }

    /// The current connection's generation (0 before the first connect).
    var currentGeneration: Int { lock.withLock { generation } }
}

extension Signal {
    /// Shares one subscription of this signal among observers through the subject that
    /// `makeSubject` creates for each connection; nothing happens until ``MulticastConnection/connect()``.
    public func multicast(_ makeSubject: @escaping @Sendable () -> any EventSubject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        MulticastConnection(source: self, makeSubject: makeSubject)
    }
}
