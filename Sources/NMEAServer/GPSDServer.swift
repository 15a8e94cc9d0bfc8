import GPSDProtocol
import NIOCore
import Synchronization
import NIOPosix
import NMEAStream

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
public final class GPSDServer: @unchecked Sendable {
    /// What the server serves, where, and its limits.
    public struct Configuration: Sendable {
        /// The devices served, by path.
        public var devices: [String]
        /// Their serial speed: found by listening unless given.
        public var speed: SerialSpeed
        /// The addresses listened on: host and port. Loopback by default: exposing a
        /// receiver's position to the network must be a deliberate choice.
        public var listen: [(host: String, port: Int)]
        /// Listening sockets already bound (from systemd: ``socketsFromSystemd()``); when
        /// there are any, ``listen`` is not bound.
        public var listeningSockets: [Int32] = []
        /// How long a device stays open after its last watcher left (zero: it closes at once).
        public var linger: Duration
        /// What `VERSION` says.
        public var version: VersionInfo
        /// The most clients at once; one more is told so and disconnected.
        public var maximumClients: Int
        /// The longest request accepted, in bytes.
        public var maximumRequestLength: Int
        /// Bytes that may wait for a client that does not read before its reports are dropped.
        public var clientBacklog: Int
        /// How long a client's backlog may stay full (reports dropped all along) before it is
        /// disconnected.
        public var slowClientTimeout: Duration

        /// A configuration serving `devices` on gpsd's port, on loopback.
        public init(devices: [String], speed: SerialSpeed = .automatic, listen: [(host: String, port: Int)] = [("127.0.0.1", 2947), ("::1", 2947)],
                    linger: Duration = .zero, version: VersionInfo = VersionInfo(release: "nmeastream", revision: "nmeastream"),
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
    private let group: MultiThreadedEventLoopGroup
    private let served: [ServedDevice]
    private let registry = Protected(Registry())

    private struct Registry {
        var channels: [Channel] = []
        var clients: [ObjectIdentifier: ClientConnection] = [:]
        var droppedByGoneClients = 0
    }

    /// Creates a server; nothing listens until ``start()``.
    public init(configuration: Configuration) {
        self.configuration = configuration
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        served = configuration.devices.map { ServedDevice(path: $0, speed: configuration.speed, linger: configuration.linger) }
    }

    /// Listens on every configured address; returns the addresses bound (a port 0 is given
    /// one by the system).
    @discardableResult
    public func start() throws -> [SocketAddress] {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let connection = ClientConnection(channel: channel, server: self)
                    guard self.add(connection) else {
                        channel.writeAndFlush(channel.allocator.buffer(string: ServerReply.error("Too many clients").line), promise: nil)
                        channel.close(promise: nil)
                        return
                    }
                    try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
                }
            }
        var bound: [SocketAddress] = []
        var channels: [EventLoopFuture<Channel>] = configuration.listeningSockets.map { bootstrap.withBoundSocket($0) }
        if channels.isEmpty { channels = configuration.listen.map { bootstrap.bind(host: $0.host, port: $0.port) } }
        for future in channels {
            let channel = try future.wait()
            registry.withLock { $0.channels.append(channel) }
            if let address = channel.localAddress { bound.append(address) }
        }
        return bound
    }

    /// Stops listening, disconnects every client and closes every device.
    public func stop() {
        let channels = registry.withLock { $0.channels }
        for channel in channels { try? channel.close().wait() }
        let clients = registry.withLock { Array($0.clients.values) }
        for client in clients { remove(client) }
        try? group.syncShutdownGracefully()
    }

    // MARK: What connections ask of the server

    private func add(_ client: ClientConnection) -> Bool {
        registry.withLock { state in
            guard state.clients.count < configuration.maximumClients else { return false }
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

    /// `client` watches exactly `paths` from now on.
    func watch(_ client: ClientConnection, paths: [String]) {
        for device in served {
            if paths.contains(device.path) { device.attach(client) } else { device.detach(client) }
        }
    }

    func devices() -> [DeviceDescription] { served.map(\.description) }

    func snapshot() -> ClientSession.ServerState {
        var latest: [String: (fix: Fix?, view: SatelliteView?)] = [:]
        for device in served where device.isOpen { latest[device.path] = device.latest }
        return ClientSession.ServerState(devices: devices(), version: configuration.version, now: .now, latest: latest)
    }

    /// What was dropped so that nothing waits for a slow party.
    public struct Drops: Sendable, Equatable {
        /// Reports a device's buffer skipped because the server fell behind it.
        public var fromDevices: Int
        /// Reports not sent to clients that did not read them.
        public var toClients: Int
    }

    /// What was dropped so far, over every device and every client (gone ones included).
    public var drops: Drops {
        let clients = registry.withLock { state in state.droppedByGoneClients + state.clients.values.reduce(0) { $0 + $1.dropped.load(ordering: .relaxed) } }
        return Drops(fromDevices: served.reduce(0) { $0 + $1.dropped }, toClients: clients)
    }

    /// How many clients are connected now (for tests of their lifetime).
    var clientCount: Int { registry.withLock { $0.clients.count } }

    /// Whether the device at `path` is open now (for tests of its lifetime).
    func isOpen(_ path: String) -> Bool { served.first { $0.path == path }?.isOpen ?? false }
}
