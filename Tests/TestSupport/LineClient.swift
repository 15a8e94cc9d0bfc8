#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A TCP client that sends text and reads lines, blocking with a time-out: a gpsd client as
/// plain as can be, for the server's tests.
public final class LineClient {
    private let socket: Int32
    private var buffer: [UInt8] = []

    /// Connects to `port` on 127.0.0.1; `receiveBuffer` sets the socket's receive buffer (a
    /// small one makes a client that does not read hold up its sender sooner).
    public init(port: Int, receiveBuffer: Int? = nil) throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            // Thrown before `socket` is set, so that deinit does not run and close the number
            // again (by then it may be another thread's descriptor).
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
        socket = descriptor
    }

    deinit { close(socket) }

    /// Makes the close (when the client is released) a reset, as a client that crashes or
    /// loses its network does: what the server writes after it fails at once.
    public func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Sends `text` as it is.
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line without its CR LF, or `nil` when none comes within `seconds` or the
    /// server closed the connection.
    public func readLine(seconds: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000)) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// The next `count` bytes as they came (lines and all), or fewer when they do not come
    /// within `seconds`.
    public func readBytes(_ count: Int, seconds: Double = 10) -> [UInt8] {
        let deadline = Date().addingTimeInterval(seconds)
        while buffer.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(left * 1000)) > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { break }
            buffer += chunk[..<received]
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(taken.count)
        return taken
    }

    /// Sends `bytes` as they are.
    public func send(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads lines until one contains `text`; that line, or `nil` after `seconds`.
    public func readLine(containing text: String, seconds: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while let line = readLine(seconds: max(0.01, deadline.timeIntervalSinceNow)) {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Sends `chunk` again and again for `seconds` without ever reading, never waiting on a
    /// full socket for more than 50 ms at a time: a client that floods and never reads. How
    /// many bytes the kernel took (once the server stops reading, that stops growing).
    public func flood(_ chunk: [UInt8], seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var total = 0
        while Date() < deadline {
            let sent = chunk.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent > 0 {
                total += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 50)
            } else {
                break
            }
        }
        return total
    }

    /// Sends `bytes` one at a time, `interval` seconds apart, for `seconds` or until the
    /// server closes the connection: a client that trickles. How long it was let stay.
    public func trickle(_ bytes: [UInt8], interval: Double, seconds: Double) -> Double {
        let start = Date()
        var index = 0
        while Date().timeIntervalSince(start) < seconds {
            let byte = [bytes[index % bytes.count]]
            index += 1
            let sent = byte.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent < 0, errno != EAGAIN { break }
            // Closed by the server: a read gives 0 (what it sent before, VERSION, is skipped).
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(interval * 1000)) > 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                if chunk.withUnsafeMutableBytes({ recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) == 0 { break }
                usleep(UInt32(interval * 1_000_000))
            }
        }
        return Date().timeIntervalSince(start)
    }
}
