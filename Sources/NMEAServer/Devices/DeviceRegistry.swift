import NMEAStream

/// The server's devices as decisions, apart from ``GPSDServer``, which holds the lock and acts
/// on them: which devices are served (those named first, then those that came, in order),
/// which candidate ports are being listened to, and which were left alone and why. A pure
/// state machine with tests of its own (`Device` and `Probe` are stand-ins there).
struct DeviceRegistry<Device, Probe> {
    /// The devices served now, by path, in the order they came.
    private(set) var served: [(path: String, device: Device)] = []
    /// Candidates being listened to, by path.
    private var probes: [String: Probe] = [:]
    /// Candidates left alone, in the order decided, with why.
    private(set) var leftAlone: [(path: String, reason: String)] = []

    /// What to do with a port plugged in (or there at the start).
    enum PortDecision: Equatable {
        /// A receiver: serve it, saying how it was found.
        case serve(discovered: String)
        /// A candidate (a USB-serial bridge): listen to it first.
        case listen
        /// Anything else, or a port served by name: leave it.
        case ignore
    }

    /// Registers the devices named at start.
    init(named: [(path: String, device: Device)] = []) { served = named }

    /// The devices served now.
    var devices: [Device] { served.map(\.device) }

    /// What to do with `port`; a port named on the command line is served already.
    static func decide(_ port: SerialPortInfo, named: Set<String>) -> PortDecision {
        guard !named.contains(port.path) else { return .ignore }
        switch port.kind {
        case .gps: return .serve(discovered: port.reason + ": served")
        case .candidate: return .listen
        case .other: return .ignore
        }
    }

    /// Serves the device `make` gives at `path`, unless one is served there; the new device.
    mutating func serve(_ path: String, _ make: () -> Device) -> Device? {
        guard !served.contains(where: { $0.path == path }) else { return nil }
        let device = make()
        served.append((path, device))
        return device
    }

    /// No longer serves the device at `path`; it, if there was one.
    mutating func stopServing(_ path: String) -> Device? {
        guard let index = served.firstIndex(where: { $0.path == path }) else { return nil }
        return served.remove(at: index).device
    }

    /// Listens to the candidate at `path` with `probe`, unless it is served, listened to or
    /// left alone already; whether to start `probe`.
    mutating func listen(to path: String, with probe: Probe) -> Bool {
        guard probes[path] == nil, !served.contains(where: { $0.path == path }),
              !leftAlone.contains(where: { $0.path == path }) else { return false }
        probes[path] = probe
        return true
    }

    /// A probe decided: whether its decision still counts (not unplugged meanwhile, nor the
    /// server stopped).
    mutating func probeDecided(_ path: String) -> Bool {
        probes.removeValue(forKey: path) != nil
    }

    /// A candidate found not to be a receiver: shown with why until it is unplugged.
    mutating func leaveAlone(_ path: String, reason: String) {
        leftAlone.append((path, reason))
    }

    /// A port unplugged: forgotten if left alone; its probe, to cancel, if it was listened to.
    /// (A device served there is stopped apart, as ``stopServing(_:)``.)
    mutating func unplugged(_ path: String) -> Probe? {
        leftAlone.removeAll { $0.path == path }
        return probes.removeValue(forKey: path)
    }

    /// The probes under way, to cancel at stop; none after.
    mutating func takeProbes() -> [Probe] {
        defer { probes = [:] }
        return Array(probes.values)
    }
}
