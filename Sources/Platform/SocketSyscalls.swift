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

    /// A non-blocking socket of `family`, closed on exec.
    package static func networkSocket(family: Int32, datagram: Bool) throws(Errno) -> Int32 {
        let type = Int32(datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        return try retrying { CPlatform.socket(family, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// Whether `fd` is a datagram socket (`SO_TYPE` is `SOCK_DGRAM`): `false` for any other
    /// descriptor, a terminal's included.
    package static func isDatagramSocket(_ fd: Int32) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) == 0 else { return false }
        return value == Int32(SOCK_DGRAM.rawValue)
    }

    /// Binds `fd` to `address`, letting other programs bind the same port too
    /// (`SO_REUSEADDR`: a chart plotter may listen for the same datagrams).
    package static func bind(_ fd: Int32, to address: ResolvedAddress) throws(Errno) {
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.isMulticast || address.family == AF_INET6 {
            // A multicast group's port is shared by every member on this machine.
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        _ = try retrying { address.withSockaddr { CPlatform.bind(fd, $0, $1) } }
    }

    /// Joins the multicast `group` on `fd`, on the interface the system chooses.
    package static func join(_ fd: Int32, group: ResolvedAddress) throws(Errno) {
        let result: Int32 = group.bytes.withUnsafeBytes { raw in
            if group.family == AF_INET6 {
                var request = ipv6_mreq()
                request.ipv6mr_multiaddr = raw.load(fromByteOffset: 8, as: in6_addr.self)
                return setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ipv6_mreq>.size))
            }
            var request = ip_mreq()
            request.imr_multiaddr = raw.load(fromByteOffset: 4, as: in_addr.self)
            request.imr_interface = in_addr(s_addr: 0)
            return setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreq>.size))
        }
        if result != 0 { throw Errno.current }
    }
}

/// A host name that could not be resolved: `getaddrinfo`'s message.
package struct ResolveFailure: Error, Sendable {
    package var message: String
}
