#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Platform

/// A port on the loopback interface that nothing is bound to now, for a server a test starts
/// later (a child process, or one started again on the same port).
///
/// It lies below the kernel's ephemeral range (32768 and up), from which every client socket
/// takes its local port: a port from that range, free when drawn, could be a client's by the
/// time the server binds it (tests run at once, one of them makes ten thousand connections).
/// And no port is drawn twice in a process, so two tests that start servers at once never get
/// the same one.
public func freeLoopbackPort(datagram: Bool = false) -> Int {
    drawnPorts.withLock { drawn in
        while true {
            let port = Int.random(in: 20_000...32_000)
            guard drawn.insert(port).inserted else { continue }
            let fd = socket(AF_INET, Int32((datagram ? SOCK_DGRAM : SOCK_STREAM).rawValue), 0)
            defer { close(fd) }
            if bindToLoopbackPort(fd, port: port) != nil { return port }
        }
    }
}

/// Every port ``freeLoopbackPort(datagram:)`` has handed out in this process.
private let drawnPorts = Protected<Set<Int>>([])

/// Binds `fd` to a free port of 127.0.0.1 (or another loopback address, `0x7F00_0002` for
/// 127.0.0.2); the port.
public func bindToFreeLoopbackPort(_ fd: Int32, address host: UInt32 = 0x7F00_0001) -> Int {
    bindToLoopbackPort(fd, port: 0, address: host) ?? 0
}

/// Binds `fd` to `port` (0: any free one) of a loopback address; the port bound, or `nil`
/// when the bind failed (the port is taken).
private func bindToLoopbackPort(_ fd: Int32, port: Int, address host: UInt32 = 0x7F00_0001) -> Int? {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: host.bigEndian)
    address.sin_port = UInt16(port).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
            bind(fd, sockaddr, length) == 0 ? getsockname(fd, sockaddr, &length) : -1
        }
    }
    return result == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
}

/// Sends each of `datagrams` to `port` at `host` (an IPv4 address: the loopback interface's by
/// default, or a multicast group, sent with a time to live of 1 and looped back to this machine).
public func sendDatagrams(_ datagrams: [[UInt8]], toPort port: Int, host: String = "127.0.0.1") {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var ttl: UInt8 = 1, loop: UInt8 = 1
    setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, 1)
    setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, &loop, 1)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    for datagram in datagrams {
        _ = datagram.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        // A receiver's pace: the reader's socket buffer is not the thing under test.
        usleep(50)
    }
}

/// A UDP socket bound to a port of the loopback interface, for what a sender sends there.
public final class DatagramReceiver {
    private let fd: Int32
    /// The port it is bound to.
    public let port: Int

    /// Binds a free port of 127.0.0.1.
    public init() {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        port = bindToFreeLoopbackPort(fd)
    }

    deinit { close(fd) }

    /// The next datagram, or `nil` when none comes within `seconds`.
    public func receive(seconds: Double = 10) -> [UInt8]? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) > 0 else { return nil }
        var datagram = [UInt8](repeating: 0, count: 65_536)
        let count = datagram.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? Array(datagram[..<count]) : nil
    }
}

/// A TCP listener on the loopback interface whose queue of connections not yet accepted is
/// full, so that a new connection to it stays under way (its SYN dropped, sent again by the
/// kernel) until the listener closes: a peer that neither accepts nor refuses.
///
/// It listens on 127.0.0.2, where no other test's client goes: a port found free on 127.0.0.1
/// by another test (``freeLoopbackPort(datagram:)``) may be this one's, and its connections
/// would be counted here.
public final class SaturatedListener {
    private let listener: Int32
    private var fillers: [Int32] = []
    /// The address it listens on.
    public let host = "127.0.0.2"
    private static let address: UInt32 = 0x7F00_0002
    /// The port it listens on.
    public let port: Int

    /// Listens with no room in its queue, and fills it; `nil` when it cannot be filled.
    public init?() {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        port = bindToFreeLoopbackPort(listener, address: Self.address)
        guard listen(listener, 0) == 0 else { return nil }
        // Connections made until one is left under way: the queue is then full.
        for _ in 0..<8 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fillers.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = in_addr(s_addr: Self.address.bigEndian)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&descriptor, 1, 500) == 0 { return }
        }
        return nil
    }

    /// Connections to its port still under way (in the SYN-SENT state), as the kernel lists them,
    /// less the one left under way in filling the queue.
    public var connectionsUnderWay: Int {
        // Read to its end: one read gives a page of the table, which a busy machine's
        // connections (those in TIME-WAIT, say) may fill.
        let data = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp")).readToEnd()) ?? nil
        let table = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let remote = String(format: "0200007F:%04X", port)
        let count = table.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2] == remote && fields[3] == "02"
        }.count
        return count - 1
    }

    deinit {
        fillers.forEach { close($0) }
        close(listener)
    }
}
