/// Where an ``NMEAReader`` gets its bytes.
public enum GPSSource: Sendable, Hashable, CustomStringConvertible {
    /// A serial device, such as `/dev/ttyACM0` or `/dev/serial/by-id/usb-u-blox…`, at a fixed
    /// speed in bits per second (an integer literal, such as `9600`) or ``SerialSpeed/automatic``,
    /// which finds the receiver's speed by listening.
    case serial(path: String, speed: SerialSpeed)
    /// A recorded NMEA log file, or standard input for `-`, read as fast as it can be or at
    /// the pace of its own timestamps (see ``LogPace``).
    case log(path: String, pace: LogPace = .asFastAsPossible)
    /// Bytes in memory, for tests and for data that arrived some other way.
    case bytes([UInt8])
    /// The best receiver plugged in, found through udev when reading starts (see
    /// ``PortDiscovery/bestReceiver()``), at the speed found by listening. With none, reading
    /// fails with ``GPSError/noReceiverFound(detail:)``, which lists the ports seen.
    case automatic
    /// The best receiver plugged in, watched: reading waits until one is plugged in, and when
    /// it is unplugged, waits for the next one and carries on with it, whatever node it gets
    /// (delegates are told ``NMEAReaderDelegate/reader(_:didLoseDevice:)`` then
    /// ``NMEAReaderDelegate/reader(_:didChoose:)``). Only a failure other than unplugging ends it.
    case watch
    /// A receiver over the network: an NMEA server, NMEA datagrams or an upstream gpsd (see
    /// ``NetworkEndpoint``). The connection is made when reading starts and tried again, with
    /// a growing wait, whenever it fails; delegates are told
    /// ``NMEAReaderDelegate/reader(_:didConnect:)`` and
    /// ``NMEAReaderDelegate/reader(_:didLoseConnection:)``.
    case network(NetworkEndpoint)
    /// The fixes of several receivers merged into one stream, the best receiver's at each
    /// epoch: what a merged monitor
    /// (``GPSMonitor/init(merging:names:name:selection:integrity:scheduler:)``) reads, named
    /// `name` (such as `best:`), from the members named `members`. Only such a monitor reads
    /// it: an ``NMEAReader`` given it fails at once.
    case merged(name: String, members: [String])
    /// A source of a kind that is a type of its own (``GPSSourceKind``); made with
    /// ``kind(_:)``.
    case custom(AnyGPSSourceKind)

    /// A receiver named on a command line: a network endpoint when `name` is a URL
    /// (`tcp://`, `udp://`, `gpsd://`), otherwise the serial device at that path, at `speed`.
    public static func named(_ name: String, speed: SerialSpeed) throws(NetworkEndpointError) -> GPSSource {
        guard NetworkEndpoint.isURL(name) else { return .serial(path: name, speed: speed) }
        return .network(try NetworkEndpoint(parsing: name))
    }

    /// The device or file path, the endpoint's URL, `memory` for bytes, or `automatic`.
    public var description: String {
        switch self {
        case .serial(let path, _): path
        case .log(let path, _): path
        case .bytes: "memory"
        case .automatic: "automatic"
        case .watch: "watch"
        case .network(let endpoint): endpoint.description
        case .merged(let name, _): name
        case .custom(let kind): kind.description
        }
    }
}

extension GPSSource {
    /// Whether the source ends by itself (a log, bytes) rather than being a device.
    var isFinite: Bool {
        switch self {
        case .log, .bytes: true
        case .serial, .automatic, .watch, .network, .merged: false
        case .custom(let kind): !kind.base.isLive
        }
    }
}
