import CPlatform

/// A socket address as `getaddrinfo` gave it, kept as its bytes.
package struct ResolvedAddress: Sendable, Hashable, CustomStringConvertible {
    /// `AF_INET` or `AF_INET6`.
    package var family: Int32
    /// The `sockaddr_in` or `sockaddr_in6`.
    package var bytes: [UInt8]

    /// Whether it is an IPv4 address (`AF_INET`).
    package var isIPv4: Bool { family == AF_INET }

    /// The numeric address and port, as `192.0.2.1:10110` or `[2001:db8::1]:10110`.
    package var description: String {
        guard let (host, port) = numericHostAndPort else { return "an address of family \(family)" }
        return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The numeric address (`2001:db8::1`, with its `%scope` when it has one) and the port;
    /// `nil` when `getnameinfo` cannot tell them.
    package var numericHostAndPort: (host: String, port: Int)? {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withSockaddr { address, length in
            getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                        NI_NUMERICHOST | NI_NUMERICSERV)
        }
        guard status == 0 else { return nil }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let port = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let number = Int(port) else { return nil }
        return (text, number)
    }

    /// Whether it is a multicast group's address (224.0.0.0/4, ff00::/8).
    package var isMulticast: Bool {
        if family == AF_INET6 { return bytes.count >= 9 && bytes[8] == 0xFF }
        return bytes.count >= 5 && bytes[4] & 0xF0 == 0xE0
    }

    package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        bytes.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count)) }
    }
}

/// Thin wrappers over the socket calls the network sources make.
extension Syscall {
    /// The addresses of `host` (`nil`: this machine's any-address) for `port`, for a stream
    /// or a datagram socket; throws `getaddrinfo`'s own message.
    package static func resolve(_ host: String?, port: Int, datagram: Bool) throws(ResolveFailure) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        if host == nil { hints.ai_flags = AI_PASSIVE }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else { throw ResolveFailure(message: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr, current.pointee.ai_family == AF_INET || current.pointee.ai_family == AF_INET6 {
                let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen)))
                let found = ResolvedAddress(family: current.pointee.ai_family, bytes: bytes)
                if !addresses.contains(found) { addresses.append(found) }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// `SO_REUSEPORT`, for a socket option set through SwiftNIO (which names no constant for it).
    package static var reusePortOption: Int32 { SO_REUSEPORT }
}

/// A host name that could not be resolved: `getaddrinfo`'s message.
package struct ResolveFailure: Error, Sendable {
    package var message: String
}
