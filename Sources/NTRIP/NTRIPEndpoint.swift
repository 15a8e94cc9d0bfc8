/// An NTRIP caster's mountpoint, as `--corrections` takes it:
/// `ntrip://[USER[:PASSWORD]@]HOST[:PORT]/MOUNT`. The port is 2101 (NTRIP's) when left out; an
/// IPv6 host goes in brackets; the user and the password may be percent-encoded (`%40` for
/// `@`). With no mountpoint (`ntrip://HOST/`), the endpoint names the caster's sourcetable.
public struct NTRIPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The caster's host name or address (without brackets).
    public var host: String
    /// The caster's TCP port.
    public var port: Int
    /// The mountpoint (a correction stream); empty for the sourcetable.
    public var mountpoint: String
    /// The user, for casters that ask for one; `nil` for none.
    public var user: String?
    /// The user's password; `nil` for none (or when it comes from a file or the environment).
    public var password: String?

    /// NTRIP's registered port.
    public static let defaultPort = 2101

    /// An endpoint from its parts.
    public init(host: String, port: Int = Self.defaultPort, mountpoint: String, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.mountpoint = mountpoint
        self.user = user
        self.password = password
    }

    /// Reads `text`; throws what is wrong with it.
    public init(parsing text: String) throws(NTRIPEndpointError) {
        guard text.hasPrefix("ntrip://") else { throw NTRIPEndpointError(text, "not an ntrip:// URL") }
        if let bad = URLAuthority.firstControlCharacter(in: text) {
            throw NTRIPEndpointError(text, "a control character (\(bad)) in the URL")
        }
        var rest = Substring(text.dropFirst("ntrip://".count))
        var user: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = try Self.percentDecoded(credentials[..<colon], in: text)
                password = try Self.percentDecoded(credentials[credentials.index(after: colon)...], in: text)
            } else {
                user = try Self.percentDecoded(credentials, in: text)
            }
        }
        guard let slash = rest.firstIndex(of: "/") else {
            throw NTRIPEndpointError(text, "no mountpoint: ntrip://HOST[:PORT]/MOUNT (a slash alone names the sourcetable)")
        }
        let authority = rest[..<slash]
        let mountpoint = String(rest[rest.index(after: slash)...])
        guard !mountpoint.contains("/"), !mountpoint.contains(where: { $0 == " " || $0.isNewline }) else {
            throw NTRIPEndpointError(text, "a mountpoint is one name, with no slash or space")
        }
        let host: String?, port: Int?
        switch URLAuthority.split(authority) {
        case .success(let split): (host, port) = split
        case .failure(let failure): throw NTRIPEndpointError(text, failure.reason)
        }
        guard let host else { throw NTRIPEndpointError(text, "no host") }
        self.init(host: host, port: port ?? Self.defaultPort, mountpoint: mountpoint, user: user, password: password)
    }

    /// The URL without the password (safe to print).
    public var description: String {
        let host = host.contains(":") ? "[\(host)]" : host
        let user = user.map { "\($0)@" } ?? ""
        return "ntrip://\(user)\(host):\(port)/\(mountpoint)"
    }

    /// `text` with its `%XX` escapes decoded, as UTF-8.
    private static func percentDecoded(_ text: Substring, in whole: String) throws(NTRIPEndpointError) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex, utf8.index(after: high) < utf8.endIndex,
                      let value = UInt8(String(decoding: [utf8[high], utf8[utf8.index(after: high)]], as: UTF8.self), radix: 16)
                else { throw NTRIPEndpointError(whole, "a % not followed by two hexadecimal digits") }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw NTRIPEndpointError(whole, "the credentials are not UTF-8") }
        return decoded
    }
}

/// An NTRIP URL that could not be read, and why.
public struct NTRIPEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given (its password, if any, hidden).
    public var text: String
    /// What is wrong with it.
    public var reason: String

    init(_ text: String, _ reason: String) {
        self.text = Self.hidingPassword(text)
        self.reason = reason
    }

    /// `"TEXT": REASON`.
    public var description: String { "\"\(text)\": \(reason)" }

    /// `text` with what stands between `USER:` and `@` replaced by `***`.
    static func hidingPassword(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://"), let at = text.lastIndex(of: "@"), at > schemeEnd.upperBound,
              let colon = text[schemeEnd.upperBound..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
