import GPSDProtocol
import NIOCore
import Synchronization
import NIOPosix
import NMEAStream
import TimeService
import Platform

/// A gpsd-protocol server: shares each receiver with every client on the machine (and every
/// existing gpsd client), opening it when the first client watches and closing it when the
/// last one leaves. Each watching client is one more subscriber of the device's
/// ``GPSMonitor``; the reference count does the rest.
///
/// ```swift
/// let server = GPSDServer(configuration: .init(devices: ["/dev/ttyACM0"]))
/// let addresses = try server.start()     // 127.0.0.1:2947 and [::1]:2947
/// // ...
/// server.stop()
/// ```
public final class GPSDServer: Sendable {
    /// What the server serves, where, and its limits.
    public struct Configuration: Sendable {
        /// The devices served, by path, for as long as the server runs (one that goes away is
        /// tried again every second while anyone watches it).
        public var devices: [String]
        /// Whether to serve, besides ``devices``, every port udev classes as a receiver
        /// (``PortKind/gps``): those plugged in at ``GPSDServer/start()`` and those plugged in
        /// later. One unplugged is announced to its watchers (`DEVICE` with `activated` 0), who
        /// stay connected, and leaves the device list until it is plugged in again.
        ///
        /// Each ``PortKind/candidate`` (a USB-serial bridge: the BU-353 puck's PL2303, a receiver
        /// board's CP210x or CH340) is listened to when it appears (``CandidateProbe``: nothing
        /// is written) and served from then on if valid NMEA or UBX arrives; one that sends
        /// nothing valid is closed and left alone until it is plugged in again. Each decision
        /// is told (``ServerEvent/candidateServed(path:reason:)``,
        /// ``ServerEvent/candidateLeftAlone(path:reason:)``) and shown in `DEVICES`
        /// (``DeviceDescription/discovered``).
        public var followsHotplug: Bool = false
        /// Their serial speed: found by listening unless given.
        public var speed: SerialSpeed
        /// The addresses listened on: host and port. Loopback by default: exposing a
        /// receiver's position to the network must be a deliberate choice.
        public var listen: [(host: String, port: Int)]
        /// The addresses the live web page is served on (``GPSDServer/webAddresses``): none by
        /// default. Loopback unless a host is given, as for ``listen``.
        public var http: [(host: String, port: Int)] = []
        /// The addresses the plain NMEA 0183 feed is served on (``GPSDServer/nmeaFeedAddresses``,
        /// port 10110 by custom): none by default. Each client is sent every valid sentence of
        /// every device served, unchanged, with CR LF, as it arrives, and nothing else; it is a
        /// watcher like a gpsd client (it keeps the devices open), with the same limits.
        public var nmeaFeed: [(host: String, port: Int)] = []
        /// Where the same sentences go as UDP datagrams, one sentence each, as a multiplexer
        /// sends them (unicast, broadcast or a multicast group): none by default. With any, the
        /// devices are read all the time, as nobody can tell whether anyone receives them.
        public var nmeaDatagrams: [(host: String, port: Int)] = []
        /// Listening sockets already bound (from systemd: ``socketsFromSystemd()``); when
        /// there are any, ``listen`` is not bound.
        public var listeningSockets: [Int32] = []
        /// How long a device stays open after its last watcher left (zero: it closes at once).
        public var linger: Duration
        /// How long an open device, connection or upstream may send nothing before it is
        /// closed, its watchers told (`DEVICE` with `activated` 0, as for an unplug), and opened
        /// again while they watch (``silentStreamsClosed``). Five of the receiver's cycles by
        /// default (``StaleLimit/automatic``).
        public var staleLimit: StaleLimit = .automatic
        /// Where the pulse per second of each receiver that has one is read (a kernel PPS
        /// device, or the DCD pin of its own line), by the receiver's path: its pulses are read
        /// while the receiver is open, each paired with the second it began, and sent as `PPS`
        /// to clients that watch with `pps` (with u-blox's TIM-TP quantization error when the
        /// receiver gives it). None by default.
        public var pulseInputs: [String: PulseInput] = [:]
        /// Opens a receiver's pulses: its path and where they are read (a stand-in in tests).
        package var openPulses: @Sendable (String, PulseInput) throws -> any PulseSource = { try $1.open(devicePath: $0) }
        /// RTK corrections written to every served receiver while it is open for a watcher
        /// (one connection to the caster, made while some receiver is open): none by default.
        public var corrections: CorrectionsFeed?
        /// The limits of the integrity checks run on every device (``IntegrityCheck``): a fix
        /// that fails one is still reported, its `TPV` listing the checks in `integrity`, and
        /// each event is told as ``ServerEvent/integrity(path:event:)``. `nil`: no checks. On,
        /// with the defaults, unless set.
        public var integrity: IntegrityThresholds? = IntegrityThresholds()
        /// The devices merged into one more, ``mergedDevicePath`` (``GPSMonitor/init(merging:names:name:selection:integrity:retryInterval:scheduler:)``),
        /// in the order of preference: two or more of ``devices``, or none (the default) for
        /// no merged device.
        public var merged: [String] = []
        /// What `VERSION` says.
        public var version: VersionInfo
        /// The most clients at once (gpsd clients, the page's and the NMEA feed's connections
        /// together, the page and the feed each within a quarter of it: ``ConnectionAdmission``);
        /// one more is told so and disconnected. Lowered at ``GPSDServer/start()`` to what the
        /// process's descriptor limit allows (``GPSDServer/connectionLimit``), so that
        /// accepting never runs out of descriptors.
        public var maximumClients: Int
        /// The longest request accepted, in bytes.
        public var maximumRequestLength: Int
        /// Bytes that may wait for a client that does not read before its reports are dropped.
        public var clientBacklog: Int
        /// How many threads serve clients: each client's connection lives on one of them,
        /// and a device's report is handed to each thread once (one wake-up per thread per
        /// report) and written there to that thread's clients. One per core by default.
        public var eventLoops: Int = System.coreCount
        /// How long a client's backlog may stay full (reports dropped all along) before it is
        /// disconnected.
        public var slowClientTimeout: Duration
        /// How long a gpsd client that watches nothing may go without completing a request
        /// before it is disconnected (gpsd's is 3 minutes); bytes that make no request do not
        /// count.
        public var requestTimeout: Duration = .seconds(60)
        /// How long the page's client may take to send a whole request (from connecting, or
        /// from the last response), however it trickles it.
        public var httpRequestTimeout: Duration = .seconds(10)
        /// Called with each ``ServerEvent`` as it happens, on whichever thread it happened
        /// (a reader's, an event loop's): return at once. `nil`: nobody is told.
        public var events: (@Sendable (ServerEvent) -> Void)?

        /// A configuration serving `devices` on gpsd's port, on loopback.
        public init(devices: [String], speed: SerialSpeed = .automatic, listen: [(host: String, port: Int)] = [("127.0.0.1", 2947), ("::1", 2947)],
                    linger: Duration = .zero, version: VersionInfo = .nmeastream,
                    maximumClients: Int = 1024, maximumRequestLength: Int = 4096, clientBacklog: Int = 256 * 1024,
                    slowClientTimeout: Duration = .seconds(10)) {
            self.devices = devices
            self.speed = speed
            self.listen = listen
            self.linger = linger
            self.version = version
            self.maximumClients = maximumClients
            self.maximumRequestLength = maximumRequestLength
            self.clientBacklog = clientBacklog
            self.slowClientTimeout = slowClientTimeout
        }
    }

    /// What the server was started with.
    public let configuration: Configuration
    let group: MultiThreadedEventLoopGroup
    /// The loops' timers and the work put on them from elsewhere, stopped with the server.
    let timers: ServerLoops
    let registry = Protected(Registry())
    /// Held while clients are attached to devices or detached from them, so that a client's
    /// change of watch and a device's arrival never interleave.
    private let membership = Lock()

    /// Connections refused or let go, by reason (``refusals``).
    public struct Refusals: Sendable, Equatable {
        /// Refused at connect: past ``connectionLimit`` (gpsd clients get `Too many clients`).
        public var tooManyClients = 0
        /// Accepting failed (out of descriptors or memory); accepting pauses briefly after each.
        public var acceptFailures = 0
        /// Let go for completing no request in time (gpsd's port: watching nothing; the page:
        /// a request not sent whole in time).
        public var timedOut = 0
        /// Let go for not reading their reports (``Configuration/slowClientTimeout``).
        public var slowClients = 0

        /// All of them.
        public var total: Int { tooManyClients + acceptFailures + timedOut + slowClients }
    }

    struct Registry {
        var channels: [Channel] = []
        /// Open connections, by listener.
        var admission = ConnectionAdmission(limit: 0)
        var refusals = Refusals()
        var clients: [ObjectIdentifier: ClientConnection] = [:]
        var droppedByGoneClients = 0
        /// The devices served now, in the order they came: those named first.
        var devices: [ServedDevice] = []
        var hotplug: Disposable?
        /// Candidates being listened to, by path.
        var probes: [String: CandidateProbe] = [:]
        /// Candidates left alone, in the order decided, with why.
        var leftAlone: [(path: String, reason: String)] = []
        /// What runs for each device served (``subscribeToDevices(_:)``).
        var deviceSubscribers: [@Sendable (String, GPSMonitor) -> Disposable] = []
        var webAddresses: [SocketAddress] = []
        var nmeaFeedAddresses: [SocketAddress] = []
        var datagramFeed: NMEADatagramFeed?
        /// Watchers that are not connections (the datagram feed): attached to every device,
        /// those that come later included.
        var standingWatchers: [any DeviceWatcher] = []
    }

    /// Creates a server; nothing listens until ``start()``.
    /// The most connections at once (both listeners'): ``Configuration/maximumClients``, or
    /// less when the descriptor limit (raised to its hard limit at ``start()``) does not leave
    /// room for that many and for the devices and files the server opens.
    public private(set) var connectionLimit: Int {
        get { limits.withLock { $0 } }
        set { limits.withLock { $0 = newValue } }
    }
    private let limits: Protected<Int>

    /// The merged device's path, `best:` (``Configuration/merged``).
    public static let mergedDevicePath = "best:"

    public init(configuration: Configuration) {
        self.configuration = configuration
        limits = Protected(configuration.maximumClients)
        group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.eventLoops)
        timers = ServerLoops(on: group.next())
        var named = configuration.devices.map(makeDevice)
        let members = configuration.merged.compactMap { path in named.first { $0.path == path } }
        if members.count >= 2 {
            let monitor = GPSMonitor(merging: members.map(\.monitor), names: members.map(\.path), name: Self.mergedDevicePath,
                                     integrity: configuration.integrity)
            named.append(ServedDevice(path: Self.mergedDevicePath, monitor: monitor, group: group, timers: timers, events: configuration.events))
        }
        registry.withLock { $0.devices = named }
    }

    private let silentStreams = Atomic<Int>(0)

    /// How many times a device, connection or upstream was closed for sending nothing
    /// (``Configuration/staleLimit``), so far.
    public var silentStreamsClosed: Int { silentStreams.load(ordering: .relaxed) }

    private func makeDevice(_ path: String) -> ServedDevice {
        makeDevice(path, speed: configuration.speed, discovered: nil)
    }

    private func makeDevice(_ path: String, speed: SerialSpeed, discovered: String?) -> ServedDevice {
        ServedDevice(path: path, speed: speed, linger: configuration.linger, staleLimit: configuration.staleLimit,
                     corrections: configuration.corrections, integrity: configuration.integrity,
                     pulses: pulseOpener(for: path), group: group, timers: timers, events: configuration.events, discovered: discovered) { [weak self] in
            self?.silentStreams.add(1, ordering: .relaxed)
        }
    }

    private var served: [ServedDevice] { registry.withLock { $0.devices } }

    /// What opens the PPS device of the receiver at `path`, if it has one.
    private func pulseOpener(for path: String) -> (@Sendable () throws -> any PulseSource)? {
        guard let input = configuration.pulseInputs[path] else { return nil }
        let open = configuration.openPulses
        return { try open(path, input) }
    }

    /// Listens on every configured address; returns the addresses bound (a port 0 is given
    /// one by the system). With ``Configuration/followsHotplug``, first finds the receivers
    /// plugged in and starts listening to udev (a ``GPSError`` when udev is not available).
    @discardableResult
    public func start() throws -> [SocketAddress] {
        connectionLimit = DescriptorLimit.connections(wanted: configuration.maximumClients)
        if configuration.followsHotplug { try followHotplug() }
        let bootstrap = listenerBootstrap()
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let connection = ClientConnection(channel: channel, server: self)
                    guard self.connectionOpened(channel, to: .gpsd), self.add(connection) else {
                        self.countRefusal(\.tooManyClients)
                        try channel.pipeline.syncOperations.addHandler(RefusalHandler(reason: ServerReply.error("Too many clients").line))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOCore.BackPressureHandler())
                    try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
                }
            }
        var bound: [SocketAddress] = []
        let gpsdPort: [(String, EventLoopFuture<Channel>)] = configuration.listeningSockets.isEmpty
            ? configuration.listen.map { ("\($0.host):\($0.port)", bootstrap.bind(host: $0.host, port: $0.port)) }
            : configuration.listeningSockets.map { ("systemd's socket \($0)", bootstrap.withBoundSocket($0)) }
        for (address, future) in gpsdPort {
            let channel: Channel
            do { channel = try future.wait() } catch { throw ListenError(address: address, listener: .gpsd, reason: error) }
            registry.withLock { $0.channels.append(channel) }
            if let address = channel.localAddress { bound.append(address) }
        }
        let pages = try bind(webBootstrap(), to: configuration.http, for: .page)
        let feeds = try bind(nmeaFeedBootstrap(), to: configuration.nmeaFeed, for: .nmeaFeed)
        registry.withLock { state in
            state.webAddresses = pages
            state.nmeaFeedAddresses = feeds
        }
        if !configuration.nmeaDatagrams.isEmpty {
            let datagrams = try NMEADatagramFeed(destinations: configuration.nmeaDatagrams, group: group)
            registry.withLock { state in
                state.datagramFeed = datagrams
                state.standingWatchers.append(datagrams)
            }
            updateWatch(of: datagrams)
        }
        return bound
    }

    /// Binds `bootstrap` to each of `addresses` (kept to be closed at ``stop()``); the
    /// addresses bound.
    private func bind(_ bootstrap: ServerBootstrap, to addresses: [(host: String, port: Int)],
                      for listener: ListenError.Listener) throws(ListenError) -> [SocketAddress] {
        var bound: [SocketAddress] = []
        for address in addresses {
            let channel: Channel
            do {
                channel = try bootstrap.bind(host: address.host, port: address.port).wait()
            } catch {
                throw ListenError(address: "\(address.host):\(address.port)", listener: listener, reason: error)
            }
            registry.withLock { $0.channels.append(channel) }
            if let address = channel.localAddress { bound.append(address) }
        }
        return bound
    }

    /// The plain NMEA feed's listener: each connection is a ``ClientConnection`` of the feed's
    /// role, under the same bounds as the gpsd port's, within the feed's share of the limit
    /// (``ConnectionAdmission``); one past it is closed at once.
    private func nmeaFeedBootstrap() -> ServerBootstrap {
        listenerBootstrap()
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let connection = ClientConnection(channel: channel, server: self, role: .nmeaFeed)
                    guard self.connectionOpened(channel, to: .nmeaFeed), self.add(connection) else {
                        self.countRefusal(\.tooManyClients)
                        try channel.pipeline.syncOperations.addHandler(RefusalHandler(reason: ""))
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(NIOCore.BackPressureHandler())
                    try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
                }
            }
    }

    /// What every listener of the server shares (the gpsd port's and the page's).
    func listenerBootstrap() -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // A failed accept (out of descriptors: EMFILE) would otherwise be tried again at
            // once, for ever, a core busy: accepting pauses 100 ms after each, and is counted.
            .serverChannelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: true) { _ in .milliseconds(100) })
                    try channel.pipeline.syncOperations.addHandler(AcceptFailureCounter { [weak self] in self?.countRefusal(\.acceptFailures) })
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Reads of at most 16 KB: what a client sends while its backlog is full waits in
            // one read at most (four a turn of the loop).
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 16_384))
            // Past the backlog a client's channel is not writable: its reports are dropped.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: configuration.clientBacklog / 2, high: max(1, configuration.clientBacklog)))
    }

    /// Counts a new connection to `listener`, unless the limit or that listener's share of it
    /// is reached (``ConnectionAdmission``); its end is counted when it closes.
    func connectionOpened(_ channel: Channel, to listener: ListenError.Listener) -> Bool {
        let opened = registry.withLock { state in
            state.admission.limit = connectionLimit
            return state.admission.admit(listener)
        }
        if opened { channel.closeFuture.whenComplete { [weak self] _ in self?.registry.withLock { $0.admission.release(listener) } } }
        return opened
    }

    /// Counts a connection refused or let go.
    func countRefusal(_ reason: WritableKeyPath<Refusals, Int> & Sendable) {
        registry.withLock { $0.refusals[keyPath: reason] += 1 }
    }

    /// Connections refused or let go so far, by reason.
    public var refusals: Refusals { registry.withLock { $0.refusals } }

    /// The addresses the live web page is served on, once ``start()`` has bound them.
    public var webAddresses: [SocketAddress] { registry.withLock { $0.webAddresses } }

    /// The addresses the plain NMEA feed is served on, once ``start()`` has bound them.
    public var nmeaFeedAddresses: [SocketAddress] { registry.withLock { $0.nmeaFeedAddresses } }

    /// How many sentences went out as datagrams (``Configuration/nmeaDatagrams``), and how
    /// many could not be sent (no route, a full socket buffer), so far.
    public var datagramCounts: NMEADatagramFeed.Counts { registry.withLock { $0.datagramFeed?.counts ?? .init() } }


    /// Stops listening, disconnects every client and closes every device; returns once they
    /// are closed. Not to be called on one of the server's event loops.
    public func stop() {
        timers.stopTimers()
        registry.withLock { state in
            defer { state.hotplug = nil }
            return state.hotplug
        }?.dispose()
        let probes = registry.withLock { state in
            defer { state.probes = [:] }
            return Array(state.probes.values)
        }
        for probe in probes { probe.cancel() }
        let channels = registry.withLock { $0.channels }
        for channel in channels { try? channel.close().wait() }
        let clients = registry.withLock { Array($0.clients.values) }
        for client in clients { remove(client) }
        let standing = registry.withLock { $0.standingWatchers }
        for watcher in standing {
            for device in served { device.detach(watcher) }
        }
        for device in served {
            device.disposeOthers()
            device.closeNow()
        }
        registry.withLock { $0.datagramFeed }?.close()
        timers.shutDown()
        try? group.syncShutdownGracefully()
    }

    // MARK: What connections ask of the server

    func add(_ client: ClientConnection) -> Bool {
        registry.withLock { state in
            guard state.clients.count < connectionLimit else { return false }
            state.clients[ObjectIdentifier(client)] = client
            return true
        }
    }

    func remove(_ client: ClientConnection) {
        registry.withLock { state in
            if state.clients.removeValue(forKey: ObjectIdentifier(client)) != nil {
                state.droppedByGoneClients += client.dropped.load(ordering: .relaxed)
            }
        }
        for device in served { device.detach(client) }
    }

    /// `client` watches what its policy says from now on.
    func watch(_ client: ClientConnection) { updateWatch(of: client) }

    /// `watcher` is attached to the devices it watches now, and detached from the others.
    private func updateWatch(of watcher: any DeviceWatcher) {
        membership.withLock {
            for device in served {
                if let streams = watcher.streams(from: device.path) {
                    device.attach(watcher, streams: streams)
                } else {
                    device.detach(watcher)
                }
            }
        }
    }

    // MARK: Devices coming and going

    /// Serves the device at `path` from now on (what gpsd's `gpsdctl add` asks of gpsd): it
    /// appears in `DEVICES`, and each client watching every device (or this one) is attached
    /// to it, which opens it, and told with a `DEVICE` line. Does nothing for a device
    /// already served.
    public func addDevice(_ path: String) {
        addDevice(path, speed: configuration.speed, discovered: nil)
    }

    func addDevice(_ path: String, speed: SerialSpeed, discovered: String?) {
        let device = registry.withLock { state -> ServedDevice? in
            guard !state.devices.contains(where: { $0.path == path }) else { return nil }
            let device = makeDevice(path, speed: speed, discovered: discovered)
            state.devices.append(device)
            return device
        }
        guard let device else { return }
        for subscriber in registry.withLock({ $0.deviceSubscribers }) { device.keep(subscriber(path, device.monitor)) }
        let watchers = registry.withLock { state -> [any DeviceWatcher] in Array(state.clients.values) + state.standingWatchers }
        let watching = membership.withLock {
            watchers.filter { watcher in
                guard let streams = watcher.streams(from: path) else { return false }
                device.attach(watcher, streams: streams)
                return true
            }
        }
        let line = Array(ServerReply.device(device.description).line.utf8)
        for watcher in watching { watcher.notify(line) }
    }

    /// Runs `subscriber` for each device served, with its ``GPSMonitor``: for those served
    /// now, and for each that comes later (hotplug). What it returns is disposed when the
    /// device goes (unplugged) or the server stops. A subscriber of the monitor keeps the
    /// device open as a watcher does: this is how a time feed (or any other sink) shares a
    /// served receiver. The device is read on one of the server's event loops: dispose a
    /// subscription off them (the last one waits there until the device is closed).
    public func subscribeToDevices(_ subscriber: @escaping @Sendable (_ path: String, _ monitor: GPSMonitor) -> Disposable) {
        let devices = registry.withLock { state -> [ServedDevice] in
            state.deviceSubscribers.append(subscriber)
            return state.devices
        }
        for device in devices { device.keep(subscriber(device.path, device.monitor)) }
    }

    /// Stops serving the device at `path` (what gpsd's `gpsdctl remove` asks): it is closed,
    /// its watchers are told (`DEVICE` with `activated` 0) and stay connected, and it leaves
    /// `DEVICES`. Does nothing for a device not served.
    public func removeDevice(_ path: String) {
        let device = registry.withLock { state -> ServedDevice? in
            guard let index = state.devices.firstIndex(where: { $0.path == path }) else { return nil }
            return state.devices.remove(at: index)
        }
        guard let device else { return }
        membership.withLock { device.retire() }
    }

    /// The devices served, then the candidates left alone (never opened for a client), with why.
    func devices() -> [DeviceDescription] {
        let leftAlone = registry.withLock { $0.leftAlone }
        return served.map(\.description) + leftAlone.map { DeviceDescription(path: $0.path, discovered: $0.reason) }
    }

    /// The paths of the devices served now: those named, and those found and still plugged in.
    public var devicePaths: [String] { served.map(\.path) }

    func snapshot() -> ClientSession.ServerState {
        var latest: [String: LatestReports] = [:]
        for device in served where device.isOpen { latest[device.path] = device.latest }
        return ClientSession.ServerState(devices: devices(), version: configuration.version, now: .now, latest: latest)
    }

    /// How many reports were not sent to clients that did not read them, so far (gone clients
    /// included). Nothing else is ever dropped: the server takes each device's events on its
    /// reader's queue, with no buffer to overflow, and hands them on without waiting.
    public var reportsDroppedForSlowClients: Int {
        registry.withLock { state in state.droppedByGoneClients + state.clients.values.reduce(0) { $0 + $1.dropped.load(ordering: .relaxed) } }
    }

    /// How many clients are connected now (for tests of their lifetime).
    var clientCount: Int { registry.withLock { $0.clients.count } }

    /// Whether the device at `path` is open now (for tests of its lifetime).
    func isOpen(_ path: String) -> Bool { served.first { $0.path == path }?.isOpen ?? false }
}
