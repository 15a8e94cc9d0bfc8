import NTRIP

/// A receiver reached over the network: an NMEA server, NMEA datagrams, or an upstream gpsd.
///
/// Written as a URL wherever a device path is taken:
/// - `tcp://HOST:PORT`: a client of a server that sends NMEA (a boat's multiplexer, an ESP32
///   or Bluetooth bridge, `serve --nmea`);
/// - `udp://[ADDRESS]:PORT`: NMEA datagrams received on `PORT`: without an address, those
///   sent to any address of this machine (unicast or broadcast); with a multicast group, that
///   group is joined; with an address of this machine, those sent to it (as gpsd reads
///   `udp://127.0.0.1:5000`);
/// - `gpsd://HOST[:PORT][/DEVICE]`: an upstream gpsd (or `nmeastream serve`), port 2947 by
///   default, watched with `raw:2` so that the receiver's own bytes, NMEA and UBX, arrive and
///   nmeastream's decoder makes the fixes; `DEVICE` picks one of its receivers.
///
/// An IPv6 address is written in brackets: `tcp://[::1]:10110`.
public enum NetworkEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A TCP server that sends NMEA.
    case tcp(host: String, port: Int)
    /// NMEA datagrams received on `port`. `address` is a multicast group to join, or an
    /// address of this machine to receive on (the datagrams sent to it only); `nil` for
    /// datagrams sent to any address of this machine (unicast or broadcast).
    case udp(address: String?, port: Int)
    /// An upstream gpsd; `device` is the path of one of its receivers, `nil` for all.
    case gpsd(host: String, port: Int, device: String?)

    /// gpsd's port.
    public static let gpsdPort = 2947

    /// Whether `text` is written as a network endpoint (it starts with one of the schemes),
    /// whether or not the rest is valid.
    public static func isURL(_ text: String) -> Bool {
        ["tcp://", "udp://", "gpsd://"].contains { text.hasPrefix($0) }
    }

    /// Reads `text` (see the type's documentation); throws what is wrong with it.
    public init(parsing text: String) throws(NetworkEndpointError) {
        if let bad = URLAuthority.firstControlCharacter(in: text) {
            throw NetworkEndpointError(text, "a control character (\(bad)) in the URL")
        }
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw NetworkEndpointError(text, "no scheme (tcp://, udp:// or gpsd://)") }
        let scheme = parts[0]
        var rest = parts[1]
        var path: String?
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        let host: String?, port: Int?
        switch URLAuthority.split(rest) {
        case .success(let authority): (host, port) = authority
        case .failure(let failure): throw NetworkEndpointError(text, failure.reason)
        }
        switch scheme {
        case "tcp":
            guard path == nil else { throw NetworkEndpointError(text, "a TCP endpoint has no path") }
            guard let host, !host.isEmpty else { throw NetworkEndpointError(text, "no host") }
            guard let port else { throw NetworkEndpointError(text, "no port (NMEA servers often use 10110)") }
            self = .tcp(host: host, port: port)
        case "udp":
            guard path == nil else { throw NetworkEndpointError(text, "a UDP endpoint has no path") }
            guard let port else { throw NetworkEndpointError(text, "no port (NMEA datagrams often come to 10110)") }
            self = .udp(address: host.flatMap { $0.isEmpty ? nil : $0 }, port: port)
        case "gpsd":
            guard let host, !host.isEmpty else { throw NetworkEndpointError(text, "no host") }
            let device = path.flatMap { $0 == "/" ? nil : $0 }
            self = .gpsd(host: host, port: port ?? Self.gpsdPort, device: device)
        default:
            throw NetworkEndpointError(text, "unknown scheme \(scheme)://; tcp://, udp:// and gpsd:// are read")
        }
    }

    /// ``udp(address:port:)``, which names a multicast group or a local address alike.
    @available(*, deprecated, renamed: "udp(address:port:)")
    public static func udp(group: String?, port: Int) -> NetworkEndpoint { .udp(address: group, port: port) }

    /// The endpoint as a URL, as it is read.
    public var description: String {
        func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
        switch self {
        case .tcp(let host, let port): return "tcp://\(bracketed(host)):\(port)"
        case .udp(let address, let port): return "udp://\(address.map(bracketed) ?? ""):\(port)"
        case .gpsd(let host, let port, let device): return "gpsd://\(bracketed(host)):\(port)\(device ?? "")"
        }
    }
}

/// A network endpoint that could not be read, and why.
public struct NetworkEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    /// `"TEXT": REASON`.
    public var description: String { "\"\(text)\": \(reason)" }
}
