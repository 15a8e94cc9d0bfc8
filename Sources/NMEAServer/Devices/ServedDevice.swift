import Dispatch
import GPSDProtocol
import NIOCore
import NMEAStream
import TimeService
import Platform

/// One receiver the server shares: its ``GPSMonitor``, the watchers that watch it, and what it
/// said last. The device opens when its first watcher comes (it subscribes to the monitor:
/// one more subscriber, like any other) and closes when the last one leaves, after the
/// server's linger, which the monitor keeps.
///
/// Nothing here waits for the device: a subscription disposed on an event loop returns at
/// once (the monitor does not wait for a release where its read loop says it may not), and
/// the monitor opens the device again only once the previous one is released.
final class ServedDevice: Sendable {
    let path: String
    /// What discovery took it for, when the server found it itself (``DeviceDescription/discovered``).
    let discovered: String?
    /// The device's shared signals: the server's watchers are one subscriber, and each of
    /// ``GPSDServer/subscribeToDevices(_:)``'s subscribers another.
    let monitor: GPSMonitor
    /// Where the device is read: on the loop of a watcher when it opens.
    private let readLoop: EventLoopDeviceReadLoop
    /// Where a lost device's next try waits.
    let timers: ServerLoops
    let state = Protected(State())
    let events: (@Sendable (ServerEvent) -> Void)?
    /// Told each time the device is closed for sending nothing.
    private let silenced: @Sendable () -> Void
    /// A network receiver's connections, told to its watchers and in events.
    private let connectionWatch = Protected<Disposable?>(nil)
    /// Opens the receiver's pulse source (its PPS device), read while the device is open.
    private let pulses: (@Sendable () throws -> any PulseSource)?

    struct State {
        /// Who watches, and whether it is open: what to do is decided there.
        var watch = ServedDeviceStateMachine<any DeviceWatcher>()
        /// What the open device said.
        var activated: UTCTime?
        var seenNMEA = false
        /// What `?POLL` reports.
        var latest = LatestReports()
        /// The failure last told, until the device reports again.
        var failure: String?
        /// A network receiver's interruption last told, until it connects again.
        var interruption: String?
        /// The receiver a merged device carries now, named in its reports.
        var source: String?

        /// Forgets what the device said, when it is let go.
        mutating func forget() {
            activated = nil
            latest = LatestReports()
            interruption = nil
            source = nil
        }
    }

    /// Keeps `subscription` (another subscriber's) until the device is retired or the server
    /// stops; disposes it at once if the device is already retired.
    func keep(_ subscription: Disposable) {
        if !state.withLock({ $0.watch.keep(subscription) }) { subscription.dispose() }
    }

    /// Disposes what other subscribers hold.
    func disposeOthers() {
        for other in state.withLock({ $0.watch.takeOthers() }) { other.dispose() }
    }

    /// How long after a loss the device is tried again while someone watches it.
    static let retryInterval = Duration.seconds(1)

    /// A device read on `group`'s loops (each time it opens, on a watcher's), checked with
    /// `integrity` when given.
    init(path: String, speed: SerialSpeed, linger: Duration, staleLimit: StaleLimit = .never, corrections: CorrectionsFeed? = nil,
         integrity: IntegrityThresholds? = nil, pulses: (@Sendable () throws -> any PulseSource)? = nil, group: EventLoopGroup,
         timers: ServerLoops, events: (@Sendable (ServerEvent) -> Void)? = nil, discovered: String? = nil,
         silenced: @escaping @Sendable () -> Void = {}) {
        self.path = path
        self.pulses = pulses
        self.discovered = discovered
        self.events = events
        self.silenced = silenced
        self.timers = timers
        let readLoop = EventLoopDeviceReadLoop(group: group, lifetime: timers, runsReadersOnLoops: true)
        self.readLoop = readLoop
        // A network receiver's URL (tcp://, udp://, gpsd://) or a serial device's path; the
        // command line has checked a URL before.
        let source = (try? GPSSource.named(path, speed: speed)) ?? .serial(path: path, speed: speed)
        monitor = GPSMonitor(source: source, linger: linger, readLoop: readLoop, staleLimit: staleLimit, corrections: corrections,
                             integrity: integrity)
        if case .network = source {
            let watch = monitor.networkConnections.observe { [weak self] event in
                if case .next(let change) = event { self?.connection(change) }
            }
            connectionWatch.withLock { $0 = watch }
        }
    }

    /// A device whose events `monitor` makes: a merged one (``GPSDServer/mergedDevicePath``),
    /// whose members are served devices of their own.
    init(path: String, monitor: GPSMonitor, group: EventLoopGroup, timers: ServerLoops, events: (@Sendable (ServerEvent) -> Void)?) {
        self.path = path
        self.timers = timers
        self.monitor = monitor
        self.events = events
        pulses = nil
        discovered = nil
        silenced = {}
        readLoop = EventLoopDeviceReadLoop(group: group, lifetime: timers, runsReadersOnLoops: true)
    }

    /// A network receiver connected, or its connection failed or was lost: its watchers are
    /// told as for a device that goes (`DEVICE` with `activated` 0) and comes back (`DEVICE`
    /// with the time it connected again), once each way; the source tries again by itself.
    private func connection(_ change: NetworkConnectionEvent) {
        switch change {
        case .connected:
            let (reconnected, watchers) = state.withLock { state -> (Bool, [any DeviceWatcher]) in
                defer { state.interruption = nil }
                guard state.interruption != nil else { return (false, []) }
                state.activated = UTCTime.now
                return (true, state.watch.watchers)
            }
            events?(.networkConnected(path: path, reconnected: reconnected))
            announce(to: watchers)
        case .interrupted(let interruption):
            let (tell, watchers) = state.withLock { state -> (Bool, [any DeviceWatcher]) in
                let first = state.interruption == nil
                let tell = state.interruption != interruption.reason
                state.interruption = interruption.reason
                return (tell, first && state.watch.isOpen ? state.watch.watchers : [])
            }
            if tell { events?(.networkInterrupted(path: path, interruption: interruption)) }
            let line = Array(ServerReply.deviceGone(path: path).line.utf8)
            notify(watchers, line)
        }
    }

    /// How the server describes it now.
    var description: DeviceDescription {
        state.withLock { state in
            DeviceDescription(path: path, activated: state.activated,
                              bitsPerSecond: state.activated == nil ? nil : monitor.speed, seenNMEA: state.seenNMEA,
                              discovered: discovered)
        }
    }

    /// Its latest fix and sky while it is open.
    var latest: LatestReports { state.withLock { $0.latest } }

    /// Whether anyone watches it (so whether it is open).
    var isOpen: Bool { state.withLock { $0.watch.isOpen } }

    /// `watcher` watches it from now on; the first watcher opens it.
    func attach(_ watcher: any DeviceWatcher, streams: WatchedStreams) {
        state.withLock { $0.watch.attach(watcher, streams: streams) }
        subscribeIfWatched()
        updateRaw()
    }

    /// `watcher` no longer watches it; after the last one (and the linger), it closes.
    func detach(_ watcher: any DeviceWatcher) {
        let subscriptions = state.withLock { state in
            let subscriptions = state.watch.detach(watcher)
            if !subscriptions.isEmpty {
                state.forget()
                state.failure = nil
            }
            return subscriptions
        }
        for subscription in subscriptions { subscription.dispose() }
        if !subscriptions.isEmpty { events?(.deviceReleased(path: path)) }
        updateRaw()
    }

    /// Opens the device (subscribes to its monitor) unless it is open, retired or unwatched:
    /// checked and claimed under one lock, so that a watcher arriving while a retry fires
    /// cannot open it twice (a second subscription, never disposed, would keep it open), and a
    /// retry after the last watcher left does not open it.
    private func subscribeIfWatched() {
        let subscription = CompositeDisposable()
        let (opener, retrying) = state.withLock { state -> ((any DeviceWatcher)?, Bool) in
            guard let opener = state.watch.open(with: subscription) else { return (nil, false) }
            state.activated = UTCTime.now
            return (opener, state.failure != nil)
        }
        guard let opener else { return }
        if !retrying { events?(.deviceOpening(path: path)) }
        if let loop = opener.eventLoop { readLoop.prefer(loop) }
        // A close() from here on disposes `subscription`, and what is added to it after is
        // disposed at once.
        subscription += TimeReports.start(for: self, pulses: pulses)
        // Before the device opens: a watcher in NMEA or raw mode gets the first read too.
        updateRaw()
        // On the reader's queue, with no buffer: each event is rendered once and handed to the
        // clients' event loops, which never wait for a client. One subscription, so that each
        // client's lines keep the receiver's order.
        subscription += monitor.eventsOnReaderQueueAsAsked().observe(
            next: { [weak self] event in
                guard let self else { return }
                switch event {
                case .epoch(let epoch): publish(epoch)
                case .sentence(let sentence): publish(sentence)
                case .bytes(let bytes): publish(bytes)
                case .integrity(let integrity): events?(.integrity(path: path, event: integrity))
                case .sourceChanged(let change):
                    state.withLock { $0.source = change.to }
                    events?(.sourceChanged(path: path, change: change))
                case .rejected: break
                }
            },
            failed: { [weak self] error in self?.lose(subscription, error: error) },
            completed: { [weak self] in self?.lose(subscription) })
    }

    /// Tells `watchers` the device as it is now (`DEVICE`, with its activation time).
    func announce(to watchers: [any DeviceWatcher]) {
        notify(watchers, Array(ServerReply.device(description).line.utf8))
    }

    /// Tells `watchers` `line` (a `DEVICE` notice), unless the server's loops have shut down
    /// (a device that fails as the server stops): their watchers are gone with them.
    private func notify(_ watchers: [any DeviceWatcher], _ line: [UInt8]) {
        timers.whileRunning {
            for watcher in watchers { watcher.notify(line) }
        }
    }

    /// Asks the reader for the device's sentences and bytes while it is open and some watcher
    /// wants them (in NMEA or raw mode), and only then: otherwise the reader copies none.
    private func updateRaw() {
        let change = state.withLock { $0.watch.updateRaw() }
        switch change {
        case .subscribe(let raw):
            raw += monitor.askForSentencesAndBytes()
        case .unsubscribe(let raw):
            raw.dispose()
        case .none: break
        }
    }

    /// The device failed, or went away: its watchers are told (once, as gpsd tells them, with
    /// `activated` 0) and stay connected; it is tried again while they watch.
    private func lose(_ subscription: CompositeDisposable, error: (any Error)? = nil) {
        let failure = error.map { ($0 as? GPSError) ?? GPSError.deviceLost(path: path, errno: nil) }
        if case .silent? = failure { silenced() }
        let (loss, tell) = state.withLock { state in
            let loss = state.watch.lose(subscription)
            if !loss.disposals.isEmpty { state.forget() }
            // Told once per failure: a device that is missing fails the same way every retry
            // (and one that stays silent, however long each silence was).
            let message: String? = if case .silent(let source, _)? = failure { "\(source) silent" } else { failure?.description }
            let tell = message != nil && message != state.failure
            if let message { state.failure = message }
            return (loss, tell)
        }
        if tell, let failure { events?(.deviceFailed(path: path, error: failure)) }
        for subscription in loss.disposals { subscription.dispose() }
        if !loss.tell.isEmpty {
            let line = Array(ServerReply.deviceGone(path: path).line.utf8)
            notify(loss.tell, line)
        }
        guard loss.retry else { return }
        timers.schedule(after: Self.retryInterval) { [weak self] in self?.retry() }
    }

    private func retry() { subscribeIfWatched() }

    /// No longer served (the device was unplugged): closed at once, its watchers told (unless
    /// they were already, when reading failed first) and let go.
    func retire() {
        let (subscriptions, watchers) = state.withLock { state in
            state.forget()
            return state.watch.retire()
        }
        for subscription in subscriptions { subscription.dispose() }
        disposeOthers()
        connectionWatch.withLock { $0 }?.dispose()
        let line = Array(ServerReply.deviceGone(path: path).line.utf8)
        notify(watchers, line)
    }

    /// Closes it now, linger or not, and returns once it is closed (the server stops its loops
    /// only after that). Not on an event loop.
    func closeNow() {
        let subscriptions = state.withLock { state in
            state.forget()
            return state.watch.closeNow()
        }
        for subscription in subscriptions { subscription.dispose() }
        monitor.endLingering()
    }
}
