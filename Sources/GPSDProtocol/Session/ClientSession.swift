import NMEA

/// One client's session as gpsd's protocol defines it: its watch policy, and what each of its
/// requests makes the server send. A pure state machine: the server hands it each request
/// (or the reader's error) with a snapshot of itself, sends the replies it returns, and
/// re-counts each device's watchers when it says the watched set changed.
public struct ClientSession: Sendable {
    /// What the client asked to watch.
    public private(set) var policy = WatchPolicy()

    /// What the server knows that a request may report.
    public struct ServerState: Sendable {
        /// Every device the server has, open or not.
        public var devices: [DeviceDescription]
        /// What `VERSION` says.
        public var version: VersionInfo
        /// The time now, for `POLL`.
        public var now: UTCTime
        /// What `POLL` reports of each open device, by path.
        public var latest: [String: LatestReports]

        /// Describes the server.
        public init(devices: [DeviceDescription], version: VersionInfo, now: UTCTime,
                    latest: [String: LatestReports] = [:]) {
            self.devices = devices
            self.version = version
            self.now = now
            self.latest = latest
        }
    }

    /// What one request produced.
    public struct Step: Sendable {
        /// The lines to send, in order.
        public var replies: [ServerReply] = []
        /// Whether what this client watches changed: the devices, or what it wants of them
        /// (JSON, NMEA, raw); the server then takes from each device what its watchers want.
        public var watchChanged = false
    }

    /// A session that watches nothing.
    public init() {}

    /// Handles one request, or the error the reader found in it.
    public mutating func handle(_ request: Result<ClientRequest, ProtocolError>, server: ServerState) -> Step {
        var step = Step()
        switch request {
        case .failure(let error):
            step.replies = [.error(error.message)]
        case .success(.version):
            step.replies = [.version(server.version)]
        case .success(.devices):
            step.replies = [.devices(server.devices)]
        case .success(.watch(nil)):
            step.replies = [.devices(server.devices), .watch(policy)]
        case .success(.watch(let arguments?)):
            var next = policy
            do throws(ProtocolError) {
                try next.apply(arguments)
            } catch {
                if case .invalidArguments(let detail) = error {
                    step.replies = [.error("Invalid WATCH: \(detail)")]
                } else {
                    step.replies = [.error(error.message)]
                }
                return step
            }
            if next.enable, let path = next.device, !server.devices.contains(where: { $0.path == path }) {
                step.replies = [.error(ProtocolError.noSuchDevice(path).message)]
                return step
            }
            step.watchChanged = policy != next
            policy = next
            step.replies = [.devices(server.devices), .watch(policy)]
        case .success(.poll):
            step.replies = [poll(server)]
        case .success(.device(let arguments)):
            step.replies = [device(arguments, server)]
        }
        return step
    }

    /// Watches as `policy` says without a request (a feed that watches from the start): what
    /// gpsd answers a `WATCH` that asks for it, `DEVICES` then `WATCH`.
    public mutating func watch(_ policy: WatchPolicy, server: ServerState) -> Step {
        var step = Step()
        step.watchChanged = self.policy != policy
        self.policy = policy
        step.replies = [.devices(server.devices), .watch(policy)]
        return step
    }

    /// The paths among `devices` that this client watches now.
    public func watchedPaths(among devices: [DeviceDescription]) -> [String] {
        policy.watchedPaths(among: devices)
    }

    /// `POLL`: the latest of every device this client watches that is open.
    private func poll(_ server: ServerState) -> ServerReply {
        let active = server.devices.filter { $0.activated != nil && policy.watches($0.path) }
        var fixes: [(device: String, fix: Fix)] = []
        var skies: [(device: String, sky: Sky)] = []
        for device in active {
            guard let latest = server.latest[device.path] else { continue }
            if let fix = latest.fix { fixes.append((device.path, fix)) }
            if let sky = latest.sky { skies.append((device.path, sky)) }
        }
        return .poll(time: server.now, active: active.count, fixes: fixes, skies: skies)
    }

    /// `?DEVICE;` or `?DEVICE={"path":...}` reports a device; any setting is refused.
    private func device(_ arguments: [String: ArgumentValue]?, _ server: ServerState) -> ServerReply {
        let settings = (arguments ?? [:]).keys.filter { $0 != "path" && $0 != "class" }
        guard settings.isEmpty else { return .error(ProtocolError.deviceSettingsRefused.message) }
        if case .string(let path)? = arguments?["path"] {
            guard let device = server.devices.first(where: { $0.path == path }) else {
                return .error(ProtocolError.noSuchDevice(path).message)
            }
            return .device(device)
        }
        switch server.devices.count {
        case 0: return .error("Can't perform DEVICE configuration, no devices attached.")
        case 1: return .device(server.devices[0])
        default: return .error("No path specified in DEVICE, but multiple devices are attached.")
        }
    }
}

extension WatchPolicy {
    /// The paths among `devices` this policy watches.
    func watchedPaths(among devices: [DeviceDescription]) -> [String] {
        devices.map(\.path).filter(watches)
    }
}
