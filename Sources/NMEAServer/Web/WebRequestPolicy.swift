import NIOHTTP1

/// Which HTTP requests the page's listener answers, against two attacks a browser allows:
///
/// - DNS rebinding: a web site whose name is made to resolve to 127.0.0.1 reaches a loopback
///   listener as if from the same origin. On a loopback listener, a request must name the
///   host as loopback (`localhost`, `127.x.x.x`, `[::1]`) in its `Host`.
/// - Cross-site WebSocket: any page the user opens may open a WebSocket to any address, and
///   browsers do not apply the same-origin rule to it. The feed is given only to a request
///   whose `Origin` (sent by every browser) is the page's own, or that has none (a program
///   that is not a browser).
struct WebRequestPolicy: Sendable {
    /// Whether the listener is on a loopback address.
    var isLoopback: Bool

    /// Whether `head` may be answered at all: one `Host` at most, and an allowed one.
    func allowsHost(_ head: HTTPRequestHead) -> Bool {
        let hosts = head.headers[canonicalForm: "host"]
        return hosts.count <= 1 && allowsHost(named: hosts.first.map(String.init))
    }

    /// Whether a request with `host` in its `Host` header (`nil`: none, as HTTP/1.0 allows)
    /// may be answered.
    func allowsHost(named host: String?) -> Bool {
        guard isLoopback, let host else { return true }
        return Self.isLoopbackName(Self.hostName(host))
    }

    /// Whether `head` may have the feed.
    func allowsFeed(_ head: HTTPRequestHead) -> Bool {
        guard allowsHost(head) else { return false }
        guard let origin = head.headers.first(name: "origin") else { return true }
        guard let host = head.headers.first(name: "host") else { return false }
        let lowered = origin.lowercased(), page = host.lowercased()
        return lowered == "http://\(page)" || lowered == "https://\(page)"
    }

    /// `host` (a `Host` header's value) without its port.
    static func hostName(_ host: String) -> String {
        let lowered = host.lowercased()
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
            return String(lowered[lowered.index(after: lowered.startIndex)..<close])
        }
        if let colon = lowered.lastIndex(of: ":") { return String(lowered[..<colon]) }
        return lowered
    }

    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
