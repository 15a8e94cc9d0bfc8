import Platform

/// The listening sockets systemd passes a service it activates from a socket unit
/// (`LISTEN_PID` naming this process, `LISTEN_FDS` sockets from descriptor 3 on), sorted by
/// address family (IPv4, then IPv6, then the rest): systemd hands them in no promised order.
/// Empty when the process was not started that way.
public func socketsFromSystemd() -> [Int32] {
    guard let pid = Environment.value("LISTEN_PID").flatMap({ Int32($0) }), pid == Syscall.processID,
          let count = Environment.value("LISTEN_FDS").flatMap({ Int($0) }), count > 0
    else { return [] }
    // Not passed on to processes this one starts.
    Environment.remove("LISTEN_PID")
    Environment.remove("LISTEN_FDS")
    Environment.remove("LISTEN_FDNAMES")
    let descriptors = (0..<count).map { Int32(3 + $0) }
    return descriptors.sorted { rank($0) < rank($1) }
}

/// IPv4 first, then IPv6, then anything else.
private func rank(_ descriptor: Int32) -> Int {
    switch Syscall.socketIPVersion(descriptor) {
    case 4: 0
    case 6: 1
    default: 2
    }
}
