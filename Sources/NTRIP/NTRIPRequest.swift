/// Which revision of NTRIP a client speaks: 1 (HTTP/1.0-like, answered `ICY 200 OK`) or 2
/// (HTTP/1.1, the stream usually chunked). Casters answer both; some old ones only 1.
public enum NTRIPVersion: Int, Sendable, Hashable, CaseIterable {
    /// NTRIP 1.0.
    case v1 = 1
    /// NTRIP 2.0.
    case v2 = 2
}

/// The request a client sends a caster for a mountpoint's stream (or, for an empty
/// mountpoint, its sourcetable).
public enum NTRIPRequest {
    /// The request's bytes: `GET /MOUNT`, the headers the revision asks for, `Authorization:
    /// Basic` when the endpoint has a user, and the blank line. `agent` goes after `NTRIP `
    /// in `User-Agent` (casters refuse clients whose agent does not start so).
    public static func bytes(for endpoint: NTRIPEndpoint, version: NTRIPVersion, agent: String) -> [UInt8] {
        var lines: [String]
        switch version {
        case .v1:
            lines = ["GET /\(endpoint.mountpoint) HTTP/1.0", "User-Agent: NTRIP \(agent)", "Accept: */*"]
        case .v2:
            let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
            lines = ["GET /\(endpoint.mountpoint) HTTP/1.1", "Host: \(host):\(endpoint.port)", "Ntrip-Version: Ntrip/2.0",
                     "User-Agent: NTRIP \(agent)"]
        }
        if let user = endpoint.user {
            lines.append("Authorization: Basic " + Base64.encode(Array("\(user):\(endpoint.password ?? "")".utf8)))
        }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}

/// RFC 4648 base64, for HTTP's Basic credentials.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let a = UInt32(bytes[index])
            let b = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let c = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = a << 16 | b << 8 | c
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
