import Dispatch
import GPSDProtocol
import NIOCore
import NMEAStream

/// One receiver the server shares: its ``GPSMonitor``, the clients that watch it, and what it
/// said last. The device opens when its first watcher comes (it subscribes to the monitor:
/// one more subscriber, like any other) and closes when the last one leaves, after the
/// server's linger.
final class ServedDevice: @unchecked Sendable {
    let path: String
    /// The device's shared signals: the server's watchers are one subscriber, and each of
    /// ``GPSDServer/subscribeToDevices(_:)``'s subscribers another.
    let monitor: GPSMonitor
    private let linger: Duration
    private let state = Protected(State())

    private struct State {
        var watchers: [ObjectIdentifier: ClientConnection] = [:]
        var subscription: Disposable?
        var closing: Disposable?
        var activated: UTCTime?
        var seenNMEA = false
        var latestFix: Fix?
        var latestSky: Sky?
        /// The views of the epoch under way, reported as one SKY.
        var sky = SkyAssembler()
        /// The device failed or went away while watched: its watchers were told once.
        var lost = false
        /// No longer served (unplugged): it opens no more.
        var retired = false
        /// What other subscribers (a time feed) hold, disposed when it is retired.
        var others: [Disposable] = []
    }

    /// Keeps `subscription` (another subscriber's) until the device is retired or the server
    /// stops; disposes it at once if the device is already retired.
    func keep(_ subscription: Disposable) {
        let retired = state.withLock { state -> Bool in
            if !state.retired { state.others.append(subscription) }
            return state.retired
        }
        if retired { subscription.dispose() }
    }

    /// Disposes what other subscribers hold.
    func disposeOthers() {
        let others = state.withLock { state -> [Disposable] in
            defer { state.others = [] }
            return state.others
        }
        for other in others { other.dispose() }
    }

    /// How long after a loss the device is tried again while someone watches it.
    static let retryInterval: DispatchTimeInterval = .seconds(1)

    init(path: String, speed: SerialSpeed, linger: Duration) {
        self.path = path
        self.linger = linger
        monitor = GPSMonitor(source: .serial(path: path, speed: speed))
    }

    /// How the server describes it now.
    var description: DeviceDescription {
        state.withLock { DeviceDescription(path: path, activated: $0.activated, seenNMEA: $0.seenNMEA) }
    }

    /// Its latest fix and sky while it is open.
    var latest: (fix: Fix?, sky: Sky?) { state.withLock { ($0.latestFix, $0.latestSky) } }

    /// Whether anyone watches it (so whether it is open, or lingering).
    var isOpen: Bool { state.withLock { $0.subscription != nil } }

    /// `client` watches it from now on; the first watcher opens it.
    func attach(_ client: ClientConnection) {
        state.withLock { state in
            guard !state.retired else { return }
            state.watchers[ObjectIdentifier(client)] = client
            state.closing?.dispose()
            state.closing = nil
        }
        subscribeIfWatched()
    }

    /// `client` no longer watches it; after the last one (and the linger), it closes.
    func detach(_ client: ClientConnection) {
        let last = state.withLock { state -> Bool in
            guard state.watchers.removeValue(forKey: ObjectIdentifier(client)) != nil else { return false }
            return state.watchers.isEmpty
        }
        guard last else { return }
        guard linger > .zero else { return close() }
        let closing = QueueScheduler(queue: .global()).schedule(after: linger) { [weak self] in self?.closeIfUnwatched() }
        state.withLock { $0.closing = closing }
    }

    private func closeIfUnwatched() {
        if state.withLock({ $0.watchers.isEmpty }) { close() }
    }

    /// Opens the device (subscribes to its monitor) unless it is open, retired or unwatched:
    /// checked and claimed under one lock, so that a watcher arriving while a retry fires
    /// cannot open it twice (a second subscription, never disposed, would keep it open), and a
    /// retry after the last watcher left does not open it.
    private func subscribeIfWatched() {
        let subscription = CompoundDisposable()
        let claimed = state.withLock { state -> Bool in
            guard !state.retired, state.subscription == nil, !state.watchers.isEmpty else { return false }
            state.subscription = subscription
            state.activated = UTCTime.now
            state.sky = SkyAssembler()
            return true
        }
        guard claimed else { return }
        // A close() from here on disposes `subscription`, and what is added to it after is
        // disposed at once.
        // One subscription, so that each cycle's views and sentences keep their order with its
        // fix; on the reader's queue, with no buffer: each event is rendered once and handed to
        // the event loop, which never waits for a client.
        subscription += monitor.eventsOnReaderQueue(satellites: true, sentences: true, bytes: true).observe(
            next: { [weak self] event in
                switch event {
                case .fix(let fix): self?.publish(fix)
                case .satellites(let view): self?.publish(view)
                case .sentence(let sentence): self?.publish(sentence)
                case .bytes(let bytes): self?.publish(bytes)
                case .rejected: break
                }
            },
            error: { [weak self] _ in self?.lose(subscription) },
            completed: { [weak self] in self?.lose(subscription) })
    }

    /// The device failed, or went away: its watchers are told (once, as gpsd tells them, with
    /// `activated` 0) and stay connected; it is tried again while they watch.
    private func lose(_ subscription: CompoundDisposable) {
        let (watchers, notify) = state.withLock { state -> ([ClientConnection], Bool) in
            guard state.subscription === subscription else { return ([], false) }
            state.subscription = nil
            state.activated = nil
            state.latestFix = nil
            state.latestSky = nil
            defer { state.lost = true }
            return (Array(state.watchers.values), !state.lost)
        }
        if notify {
            let line = Array(ServerReply.deviceGone(path: path).line.utf8)
            for client in watchers { client.send(line) }
        }
        guard !watchers.isEmpty else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.retryInterval) { [weak self] in self?.retry() }
    }

    private func retry() { subscribeIfWatched() }

    /// No longer served (the device was unplugged): closed at once, its watchers told (unless
    /// they were already, when reading failed first) and let go.
    func retire() {
        let (subscription, watchers) = state.withLock { state -> (Disposable?, [ClientConnection]) in
            defer {
                state.retired = true
                state.lost = true
                state.watchers = [:]
                state.subscription = nil
                state.activated = nil
                state.latestFix = nil
                state.latestSky = nil
            }
            state.closing?.dispose()
            state.closing = nil
            return (state.subscription, state.lost ? [] : Array(state.watchers.values))
        }
        subscription?.dispose()
        disposeOthers()
        let line = Array(ServerReply.deviceGone(path: path).line.utf8)
        for client in watchers { client.send(line) }
    }

    private func close() {
        let subscription = state.withLock { state -> Disposable? in
            defer {
                state.subscription = nil
                state.activated = nil
                state.latestFix = nil
                state.latestSky = nil
            }
            return state.subscription
        }
        // Returns once the device is closed.
        subscription?.dispose()
    }

    /// The watchers that `want` what is about to be sent.
    private func watchers(wanting wants: (ClientConnection) -> Bool) -> [ClientConnection] {
        state.withLock { $0.watchers.values.filter(wants) }
    }

    /// The epoch's sky (its views as one SKY, as gpsd sends it), then its TPV, in one write.
    private func publish(_ fix: Fix) {
        let sky = state.withLock { state -> Sky? in
            state.latestFix = fix
            state.seenNMEA = true
            state.lost = false
            let sky = state.sky.finish()
            if let sky { state.latestSky = sky }
            return sky
        }
        let clients = watchers { $0.wantsJSON(from: path) }
        guard !clients.isEmpty else { return }
        var lines = ByteBufferAllocator().buffer(capacity: 2048)
        var writer = JSONWriter()
        if let sky {
            GPSDJSON.writeSKY(sky, device: path, dilutionsOf: fix, to: &writer)
            Self.appendLine(writer, to: &lines)
            writer.reset()
        }
        GPSDJSON.writeTPV(fix, device: path, to: &writer)
        Self.appendLine(writer, to: &lines)
        fanOut(lines, to: clients)
    }

    private func publish(_ view: SatelliteView) {
        let completed = state.withLock { state -> Sky? in
            let completed = state.sky.add(view)
            if let completed { state.latestSky = completed }
            return completed
        }
        guard let completed else { return }
        let clients = watchers { $0.wantsJSON(from: path) }
        guard !clients.isEmpty else { return }
        var writer = JSONWriter()
        GPSDJSON.writeSKY(completed, device: path, to: &writer)
        var line = ByteBufferAllocator().buffer(capacity: 1024)
        Self.appendLine(writer, to: &line)
        fanOut(line, to: clients)
    }

    /// To clients in NMEA mode or raw mode 1: each valid sentence as received.
    private func publish(_ sentence: ReceivedSentence) {
        state.withLock { $0.seenNMEA = true }
        let clients = watchers { $0.wantsSentences(from: path) }
        guard !clients.isEmpty else { return }
        var line = ByteBufferAllocator().buffer(string: sentence.text)
        line.writeBytes([0x0D, 0x0A])
        fanOut(line, to: clients)
    }

    /// To clients in raw mode 2: the device's bytes unchanged.
    private func publish(_ bytes: [UInt8]) {
        let clients = watchers { $0.wantsBytes(from: path) }
        guard !clients.isEmpty else { return }
        fanOut(ByteBufferAllocator().buffer(bytes: bytes), to: clients)
    }

    /// `writer`'s object as one line of gpsd's output (CR LF: python3-gps parses nothing
    /// with LF alone).
    private static func appendLine(_ writer: JSONWriter, to buffer: inout ByteBuffer) {
        writer.withBytes { _ = buffer.writeBytes($0) }
        buffer.writeBytes([0x0D, 0x0A])
    }

    /// Hands `buffer` to `clients`: one buffer shared by all, and one task per event loop
    /// (each with that loop's clients), so that a report costs one wake-up per loop, not per
    /// client, and each client's reports keep their order.
    private func fanOut(_ buffer: ByteBuffer, to clients: [ClientConnection]) {
        var groups: [(loop: EventLoop, clients: [ClientConnection])] = []
        for client in clients {
            if let index = groups.firstIndex(where: { $0.loop === client.eventLoop }) {
                groups[index].clients.append(client)
            } else {
                groups.append((client.eventLoop, [client]))
            }
        }
        for group in groups {
            let clients = group.clients
            group.loop.execute {
                for client in clients { client.deliver(buffer) }
            }
        }
    }
}
