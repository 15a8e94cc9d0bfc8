/// The `HOST[:PORT]` part of a receiver's or a caster's URL, read once for both
/// (`NetworkEndpoint` in `NMEAStream` and ``NTRIPEndpoint``): `HOST:PORT`, `[V6]:PORT`,
/// `:PORT`, `HOST` or `[V6]`.
package enum URLAuthority {
    /// The host (without brackets; `nil` when empty) and the port (`nil` when not given), or
    /// what is wrong, as a phrase.
    package static func split(_ text: Substring) -> Result<(host: String?, port: Int?), Failure> {
        if let bad = firstControlCharacter(in: text) { return .failure(Failure("a control character (\(bad)) in the address")) }
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(Failure("an IPv6 address without its closing ]")) }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(Failure("text after the IPv6 address")) }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else {
                return .failure(Failure("an IPv6 address must be written in brackets, as [::1]"))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        var port: Int?
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else {
                return .failure(Failure("the port must be a number from 1 to 65535, not \"\(portText)\""))
            }
            port = value
        }
        return .success((host.isEmpty ? nil : String(host), port))
    }

    /// The first control character (C0 or DEL) in `text`, written as `U+000A`; `nil` when it
    /// has none. A URL from a command line or a file holds none: a line feed in one would end
    /// a request line and start another (a second request to an upstream server).
    package static func firstControlCharacter(in text: some StringProtocol) -> String? {
        guard let scalar = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// What is wrong with an authority.
    package struct Failure: Error {
        package let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
