import CPlatform
import Platform

/// The listening sockets systemd passes a service it activates from a socket unit
/// (`LISTEN_PID` naming this process, `LISTEN_FDS` sockets from descriptor 3 on), sorted by
/// address family (IPv4, then IPv6, then the rest): systemd hands them in no promised order.
/// Empty when the process was not started that way.
public func socketsFromSystemd() -> [Int32] {
    guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
          let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count > 0
    else { return [] }
    // Not passed on to processes this one starts.
    unsetenv("LISTEN_PID")
    unsetenv("LISTEN_FDS")
    unsetenv("LISTEN_FDNAMES")
    let descriptors = (0..<count).map { Int32(3 + $0) }
    return descriptors.sorted { rank($0) < rank($1) }
}

/// IPv4 first, then IPv6, then anything else.
private func rank(_ descriptor: Int32) -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let family = withUnsafeMutablePointer(to: &storage) { pointer -> Int32 in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            getsockname(descriptor, address, &length) == 0 ? Int32(address.pointee.sa_family) : -1
        }
    }
    switch family {
    case AF_INET: return 0
    case AF_INET6: return 1
    default: return 2
    }
}
