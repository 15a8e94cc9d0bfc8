import Platform
/// Connects a ``MulticastConnection`` while it has observers.
///
/// The first observer connects; the last observer's dispose disconnects (after `linger`, when
/// set, so that quick churn does not reconnect); the next observer connects again, with a fresh
/// subject. Each busy period is tagged: a dispose left over from an earlier period never
/// touches a later one, and an upstream that completed or failed ends its period, so the next
/// observer connects anew even while observers of the old period are still leaving.
@usableFromInline
final class RefCount<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let connection: MulticastConnection<Value, Failure>
    @usableFromInline let linger: (duration: Duration, scheduler: any Scheduler)?
    @usableFromInline let state = Protected(State())

    @usableFromInline
    struct State {
        @usableFromInline var count = 0
        @usableFromInline var period = 0
        @usableFromInline var periodGeneration = 0
        @usableFromInline var periodTicket: ConnectDisconnectQueue.Ticket?
        @usableFromInline var lingerTimer: (token: Int, disposable: SerialDisposable)?
        @usableFromInline var nextTimerToken = 0

        @inlinable
        init() {}
    }

    @inlinable
    init(connection: MulticastConnection<Value, Failure>, linger: (duration: Duration, scheduler: any Scheduler)?) {
        self.connection = connection
        self.linger = linger
    }

    @inlinable
    var signal: Signal<Value, Failure> {
        Signal { [self] observer in subscribe(observer) }
    }

    /// ``signal`` whose observers also get the subject's latest kept value first (see
    /// ``Subject/init(keepingLatest:)``).
    @inlinable
    var latestFirst: Signal<Value, Failure> {
        Signal { [self] observer in subscribe(observer, replayingLatest: true) }
    }

    @inlinable
    func subscribe(_ observer: Observer<Value, Failure>, replayingLatest: Bool = false) -> Disposable {
        var cancelledTimer: Disposable?
        var attachment: Disposable?
        // Decide "first observer", count this one and, for a new period, attach it and queue
        // the connect, all in one critical section: the decisions are queued in the order they
        // were made, so a connect can never overtake the disconnect of the period before.
        let (period, joined, ticket) = state.withLock { state -> (Int, (SubjectHandle<Value, Failure>)?, ConnectDisconnectQueue.Ticket?) in
            cancelledTimer = state.lingerTimer?.disposable
            state.lingerTimer = nil
            state.count += 1
            if state.count > 1 || cancelledTimer != nil, let subject = connection.subject(ofGeneration: state.periodGeneration) {
                return (state.period, subject, state.periodTicket)
            }
            state.period += 1
            state.count = 1
            // A fresh subject has no replay, no latest value and no observers: attaching runs
            // no user code.
            let prepared = connection.prepareConnect { attachment = $0.attach(observer, replayingLatest) }
            state.periodGeneration = prepared.generation
            state.periodTicket = prepared.ticket
            return (state.period, nil, prepared.ticket)
        }
        cancelledTimer?.dispose()
        // Later observers attach outside the lock: a replay runs their handlers.
        if let joined { attachment = joined.attach(observer, replayingLatest) }
        // Every observer returns once the upstream of its period is connected.
        if let ticket { connection.operations.complete(through: ticket) }
        return BlockDisposable { [weak self, attachment] in
            attachment?.dispose()
            self?.leave(period)
        }
    }

    @usableFromInline
    func leave(_ period: Int) {
        var timer: (token: Int, generation: Int, holder: SerialDisposable)?
        let ticket = state.withLock { state -> ConnectDisconnectQueue.Ticket? in
            guard period == state.period, state.count > 0 else { return nil }
            state.count -= 1
            guard state.count == 0 else { return nil }
            guard linger != nil else { return connection.prepareDisconnect(state.periodGeneration) }
            state.nextTimerToken += 1
            let holder = SerialDisposable()
            state.lingerTimer = (state.nextTimerToken, holder)
            timer = (state.nextTimerToken, state.periodGeneration, holder)
            return nil
        }
        if let ticket { connection.operations.complete(through: ticket) }
        if let timer, let linger {
            // The holder was registered before the timer exists: a timer that fires at once
            // still finds its token, and a cancel before this line disposes the timer on arrival.
            timer.holder.inner = linger.scheduler.schedule(after: linger.duration) { [weak self] in
                self?.lingerEnded(timer.token, timer.generation)
            }
        }
    }

    private func lingerEnded(_ token: Int, _ generation: Int) {
        let ticket = state.withLock { state -> ConnectDisconnectQueue.Ticket? in
            guard let timer = state.lingerTimer, timer.token == token, state.count == 0 else { return nil }
            state.lingerTimer = nil
            return connection.prepareDisconnect(generation)
        }
        if let ticket { connection.operations.complete(through: ticket) }
    }

    /// Ends a linger under way now, as if its time had come.
    @usableFromInline
    func endLinger() {
        let (timer, ticket) = state.withLock { state -> (Disposable?, ConnectDisconnectQueue.Ticket?) in
            guard let timer = state.lingerTimer, state.count == 0 else { return (nil, nil) }
            state.lingerTimer = nil
            return (timer.disposable, connection.prepareDisconnect(state.periodGeneration))
        }
        timer?.dispose()
        if let ticket { connection.operations.complete(through: ticket) }
    }
}

extension MulticastConnection {
    /// The connection as a signal that connects for its first observer and disconnects after
    /// its last one leaves; a later observer connects again.
    @inlinable
    public func refCount() -> Signal<Value, Failure> {
        RefCount(connection: self, linger: nil).signal
    }

    /// ``refCount()`` that keeps the connection `linger` longer after the last observer left,
    /// timed on `scheduler`: an observer that comes within it joins the same connection.
    @inlinable
    public func refCount(linger: Duration, on scheduler: some Scheduler) -> Signal<Value, Failure> {
        RefCount(connection: self, linger: (linger, scheduler)).signal
    }
}

/// A connection shared by reference counting (``MulticastConnection/refCount()``, with a
/// linger or not) as two signals over the same subject and periods: the live events, and the
/// subject's latest kept value then the live events (see ``Subject/init(keepingLatest:)``);
/// and what ends a linger early.
package struct SharedSignals<Value: Sendable, Failure: Error>: Sendable {
    /// The live events.
    package let signal: Signal<Value, Failure>
    /// The latest kept value of the current connection, if any, then the live events.
    package let latestFirst: Signal<Value, Failure>
    private let refCount: RefCount<Value, Failure>

    init(_ refCount: RefCount<Value, Failure>) {
        self.refCount = refCount
        signal = refCount.signal
        latestFirst = refCount.latestFirst
    }

    /// Disconnects now if the last observer has left and the linger runs (a program that
    /// stops does not wait for it); does nothing otherwise.
    package func endLinger() { refCount.endLinger() }
}

extension MulticastConnection {
    /// ``refCount()``, or ``refCount(linger:on:)`` when `linger` is given, as ``SharedSignals``.
    package func sharedSignals(linger: (duration: Duration, scheduler: any Scheduler)? = nil) -> SharedSignals<Value, Failure> {
        SharedSignals(RefCount(connection: self, linger: linger))
    }
}

extension Signal {
    /// One upstream subscription shared by all current observers: connected for the first,
    /// disconnected after the last, connected again for the next (see ``MulticastConnection``).
    @inlinable
    public func share() -> Signal {
        multicast { Subject<Value, Failure>() }.refCount()
    }

    /// ``share()`` that replays the last `limit` values of the current connection to each
    /// new observer.
    @inlinable
    public func share(limit: Int) -> Signal {
        multicast { Subject<Value, Failure>(capacity: limit) }.refCount()
    }
}
