#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: one `write(2)` per 64 KiB, not per line.
final class BufferedOutput {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let limit: Int
    /// Set when a write failed (a closed pipe, a full disk); later output is dropped.
    private(set) var failed = false

    init(fd: Int32 = STDOUT_FILENO, limit: Int = 65_536) {
        self.fd = fd
        self.limit = limit
        buffer.reserveCapacity(limit + 1024)
    }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                failed = true
                return
            }
            offset += written
        }
    }
}

/// Writes one line to standard error at once.
func printError(_ message: String) {
    let line = Array("nmeastream: \(message)\n".utf8)
    line.withUnsafeBytes { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
