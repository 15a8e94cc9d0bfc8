import Platform
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on the loopback interface for network-source tests: each connection it
/// accepts gets `bytes` (written in chunks of up to `chunkSize`), then is closed by the server,
/// or held open until ``close()`` (a receiver that goes on sending nothing new). Accepts up to
/// `connections` clients, one after another, on a thread of its own, then stops listening
/// (a client refused from then on).
public final class LoopbackNMEAServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let done = DispatchSemaphore(value: 0)
    private let lock = Lock()
    private var accepted = 0
    private var held: [Int32] = []
    private var isListening = true

    /// Listens on `port` (0: any free port).
    public init(bytes: [UInt8], connections: Int, port: Int = 0, chunkSize: Int = 4096, holdsOpen: Bool = false) throws {
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
                if holdsOpen {
                    lock.withLock { held.append(client) }
                } else {
                    Glibc.close(client)
                }
            }
            stopListening()
            done.signal()
        }
    }

    /// How many clients it has accepted.
    public var acceptedCount: Int { lock.withLock { accepted } }

    /// Stops listening (a thread blocked in accept returns) and closes the connections held.
    public func close() {
        stopListening()
        _ = done.wait(timeout: .now() + 5)
        for client in lock.withLock({ held }) { Glibc.close(client) }
    }

    /// Closes the listening socket, once (a thread blocked in accept returns).
    private func stopListening() {
        lock.withLock {
            guard isListening else { return }
            isListening = false
            shutdown(listener, Int32(SHUT_RDWR))
            Glibc.close(listener)
        }
    }
}
