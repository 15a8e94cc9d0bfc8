/// Connects a ``MulticastConnection`` while it has observers.
///
/// The first observer connects; the last observer's dispose disconnects (after `linger`, when
/// set, so that quick churn does not reconnect); the next observer connects again, with a fresh
/// subject. Each busy period is tagged: a dispose left over from an earlier period never
/// touches a later one, and an upstream that completed or failed ends its period, so the next
/// observer connects anew even while observers of the old period are still leaving.
final class RefCount<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private enum Next { case nothing, disconnect(Int), linger(Int, Int, SerialDisposable) }

    private let connection: MulticastConnection<Value, Failure>
    private let linger: (duration: Duration, scheduler: any Scheduler)?
    private let lock = Lock()
    // Guarded by `lock`.
    private var count = 0
    private var period = 0
    private var periodGeneration = 0
    private var lingerTimer: (token: Int, disposable: Disposable)?
    private var nextTimerToken = 0

    init(connection: MulticastConnection<Value, Failure>, linger: (duration: Duration, scheduler: any Scheduler)?) {
        self.connection = connection
        self.linger = linger
    }

    var signal: Signal<Value, Failure> {
        Signal { [self] observer in subscribe(observer) }
    }

    private func subscribe(_ observer: Observer<Value, Failure>) -> Disposable {
        // Decide "first observer" and count this one in a single critical section.
        var cancelledTimer: Disposable?
        let (period, subject, start) = lock.withLock { () -> (Int, any EventSubject<Value, Failure>, (@Sendable () -> Void)?) in
            cancelledTimer = lingerTimer?.disposable
            lingerTimer = nil
            var start: (@Sendable () -> Void)?
            let subject: any EventSubject<Value, Failure>
            if count > 0 || cancelledTimer != nil, connection.isConnected(generation: periodGeneration) {
                subject = connection.prepareConnect().subject
            } else {
                self.period += 1
                count = 0
                let prepared = connection.prepareConnect()
                periodGeneration = prepared.generation
                subject = prepared.subject
                start = prepared.start
            }
            count += 1
            return (self.period, subject, start)
        }
        cancelledTimer?.dispose()
        // Attach before connecting, so the first observer sees what the upstream sends at once.
        let attachment = subject.signal.observe(observer)
        start?()
        return ActionDisposable { [weak self] in
            attachment.dispose()
            self?.leave(period)
        }
    }

    private func leave(_ period: Int) {
        let next = lock.withLock { () -> Next in
            guard period == self.period, count > 0 else { return .nothing }
            count -= 1
            guard count == 0 else { return .nothing }
            guard linger != nil else { return .disconnect(periodGeneration) }
            nextTimerToken += 1
            let holder = SerialDisposable()
            lingerTimer = (nextTimerToken, holder)
            return .linger(nextTimerToken, periodGeneration, holder)
        }
        switch next {
        case .nothing:
            break
        case .disconnect(let generation):
            connection.disconnect(generation)
        case .linger(let token, let generation, let holder):
            guard let linger else { return }
            // The holder was registered before the timer exists: a timer that fires at once
            // still finds its token, and a cancel before this line disposes the timer on arrival.
            holder.inner = linger.scheduler.schedule(after: linger.duration) { [weak self] in
                self?.lingerEnded(token, generation)
            }
        }
    }

    private func lingerEnded(_ token: Int, _ generation: Int) {
        let expired = lock.withLock { () -> Bool in
            guard let timer = lingerTimer, timer.token == token, count == 0 else { return false }
            lingerTimer = nil
            return true
        }
        if expired { connection.disconnect(generation) }
    }
}

extension MulticastConnection {
    /// The connection as a signal that connects for its first observer and disconnects after
    /// its last one leaves; a later observer connects again.
    public func refCount() -> Signal<Value, Failure> {
        RefCount(connection: self, linger: nil).signal
    }

    /// ``refCount()`` that keeps the connection `linger` longer after the last observer left,
    /// timed on `scheduler`: an observer that comes within it joins the same connection.
    public func refCount(linger: Duration, on scheduler: some Scheduler) -> Signal<Value, Failure> {
        RefCount(connection: self, linger: (linger, scheduler)).signal
    }
}

extension Signal {
    /// One upstream subscription shared by all current observers: connected for the first,
    /// disconnected after the last, connected again for the next (see ``MulticastConnection``).
    public func share() -> Signal {
        multicast { Subject<Value, Failure>() }.refCount()
    }

    /// ``share()`` that replays the last `replay` values of the current connection to each
    /// new observer.
    public func share(replay: Int) -> Signal {
        multicast { ReplaySubject<Value, Failure>(capacity: replay) }.refCount()
    }
}
