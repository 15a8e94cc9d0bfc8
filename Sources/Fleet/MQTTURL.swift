import NTRIP

/// Where a fleet's messages go: `mqtt://[user[:password]@]host[:port]/topic`, or `mqtts://`
/// for TLS. The password may also come from elsewhere (an environment variable, a file):
/// a command line is visible to every user of the machine.
public struct MQTTURL: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection is TLS (`mqtts`).
    public var isTLS: Bool
    /// The broker's host name or address.
    public var host: String
    /// The broker's port: 1883 by default, 8883 with TLS.
    public var port: Int
    /// The user name, if any.
    public var user: String?
    /// The password from the URL, if it had one.
    public var password: String?
    /// The topic (the prefix of a publisher's topics; a subscriber's filter, wildcards allowed).
    public var topic: String

    /// Why a URL is not one.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case scheme(String)
        case host
        case port(String)
        case topic(String)
        /// The address is malformed: why.
        case address(String)

        public var description: String {
            switch self {
            case .scheme(let scheme): "the scheme must be mqtt:// or mqtts://, not \(scheme.isEmpty ? "none" : scheme + "://")"
            case .host: "no broker host"
            case .port(let port): "the port must be a number from 1 to 65535, not \(port)"
            case .topic(let why): why
            case .address(let why): why
            }
        }
    }

    /// Parses `text`.
    public init(_ text: String) throws(ParseError) {
        if let bad = URLAuthority.firstControlCharacter(in: text) { throw .address("a control character (\(bad)) in the URL") }
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .scheme("") }
        let scheme = parts[0].lowercased()
        guard scheme == "mqtt" || scheme == "mqtts" else { throw .scheme(scheme) }
        isTLS = scheme == "mqtts"
        var rest = parts[1]
        let path = rest.firstIndex(of: "/").map { rest[$0...].dropFirst() } ?? ""
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon]).removingPercentEncoding
                password = String(credentials[credentials.index(after: colon)...]).removingPercentEncoding
            } else {
                user = String(credentials).removingPercentEncoding
            }
            rest = rest[rest.index(after: at)...]
        }
        // The one reading of HOST[:PORT] that every URL of the project shares.
        switch URLAuthority.split(rest) {
        case .failure(let failure):
            if failure.reason.hasPrefix("the port"), let colon = rest.lastIndex(of: ":") { throw .port(String(rest[rest.index(after: colon)...])) }
            throw .address(failure.reason)
        case .success(let (host, port)):
            guard let host else { throw .host }
            self.host = host
            self.port = port ?? (isTLS ? 8883 : 1883)
        }
        let topic = String(path).removingPercentEncoding ?? String(path)
        guard !topic.isEmpty else { throw .topic("no topic: give one after the host, as in mqtt://broker/fleet") }
        guard !topic.contains("\u{0}") else { throw .topic("a topic cannot hold a NUL") }
        self.topic = topic
    }

    /// Whether the topic has wildcards (`+`, `#`): a subscriber's filter, not a publisher's topic.
    public var hasWildcards: Bool { topic.contains("+") || topic.contains("#") }

    /// The URL without its password.
    public var description: String {
        let credentials = user.map { "\($0)\(password == nil ? "" : ":***")@" } ?? ""
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(isTLS ? "mqtts" : "mqtt")://\(credentials)\(hostText):\(port)/\(topic)"
    }
}

extension String {
    /// `self` with `%XX` escapes decoded; `nil` when one is malformed.
    var removingPercentEncoding: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
