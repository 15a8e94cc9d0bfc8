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
    /// What the server was started with.
    public let configuration: Configuration
    let group: MultiThreadedEventLoopGroup
    /// The loops' timers and the work put on them from elsewhere, stopped with the server.
    let timers: ServerLoops
    let registry = Protected(Registry())
    /// Held while clients are attached to devices or detached from them, so that a client's
    /// change of watch and a device's arrival never interleave.
    private let membership = Lock()

    struct Registry {
        var channels: [Channel] = []
        /// Open connections, by listener.
        var admission = ConnectionAdmission(limit: 0)
        var refusals = Refusals()
        var clients: [ObjectIdentifier: ClientConnection] = [:]
        var droppedByGoneClients = 0
        /// The devices served, candidates listened to and left alone.
        var devices = DeviceRegistry<ServedDevice, CandidateProbe>()
        var hotplug: Disposable?
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
        registry.withLock { $0.devices = DeviceRegistry(named: named.map { ($0.path, $0) }) }
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

    private var served: [ServedDevice] { registry.withLock { $0.devices.devices } }

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
        let bound = configuration.listeningSockets.isEmpty
            ? try bind(StreamClientListener.gpsd, to: configuration.listen)
            : try bind(StreamClientListener.gpsd, sockets: configuration.listeningSockets)
        let pages = try bind(PageListener(), to: configuration.http)
        let feeds = try bind(StreamClientListener.nmeaFeed, to: configuration.nmeaFeed)
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
        let probes = registry.withLock { $0.devices.takeProbes() }
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
        let device = registry.withLock { state in
            state.devices.serve(path) { makeDevice(path, speed: speed, discovered: discovered) }
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
            return state.devices.devices
        }
        for device in devices { device.keep(subscriber(device.path, device.monitor)) }
    }

    /// Stops serving the device at `path` (what gpsd's `gpsdctl remove` asks): it is closed,
    /// its watchers are told (`DEVICE` with `activated` 0) and stay connected, and it leaves
    /// `DEVICES`. Does nothing for a device not served.
    public func removeDevice(_ path: String) {
        let device = registry.withLock { $0.devices.stopServing(path) }
        guard let device else { return }
        membership.withLock { device.retire() }
    }

    /// The devices served, then the candidates left alone (never opened for a client), with why.
    func devices() -> [DeviceDescription] {
        let leftAlone = registry.withLock { $0.devices.leftAlone }
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
