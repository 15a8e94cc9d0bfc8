import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on the loopback interface for network-source tests: each connection it
/// accepts gets `bytes` (written in chunks of up to `chunkSize`), then is closed by the server.
/// Accepts up to `connections` clients, one after another, on a thread of its own.
final class LoopbackNMEAServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var accepted = 0

    /// Listens on `port` (0: any free port).
    init(bytes: [UInt8], connections: Int, port: Int = 0, chunkSize: Int = 4096) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            let error = errno
            Glibc.close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        Thread.detachNewThread { [self] in
            for _ in 0..<connections {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { break }
                lock.withLock { accepted += 1 }
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunkSize)
                    let written = bytes[offset..<end].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if written <= 0 { break }
                    offset += written
                }
                Glibc.close(client)
            }
            done.signal()
        }
    }

    /// How many clients it has accepted.
    var acceptedCount: Int { lock.withLock { accepted } }

    /// Stops listening (a thread blocked in accept returns).
    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        _ = done.wait(timeout: .now() + 5)
    }
}

/// A port on the loopback interface that nothing listens on now (bound, read, closed).
func freeLoopbackPort(datagram: Bool = false) -> Int {
    let fd = socket(AF_INET, Int32((datagram ? SOCK_DGRAM : SOCK_STREAM).rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
            bind(fd, sockaddr, length) == 0 ? getsockname(fd, sockaddr, &length) : -1
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Sends each of `datagrams` to `port` at `host` (an IPv4 address: the loopback interface's by
/// default, or a multicast group, sent with a time to live of 1 and looped back to this machine).
func sendDatagrams(_ datagrams: [[UInt8]], toPort port: Int, host: String = "127.0.0.1") {
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
