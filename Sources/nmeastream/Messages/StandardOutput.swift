import ArgumentParser
import Platform
import NMEAStream

/// A buffered writer to a file descriptor: one `write(2)` per 64 KiB, not per line.
final class BufferedOutput {
    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private let capacity: Int
    private let fd: Int32
    /// Why a write failed (a full disk, `/dev/full`), once one has; later output is dropped.
    private(set) var failure: Errno?
    var failed: Bool { failure != nil }

    init(fd: Int32 = Syscall.standardOutput, capacity: Int = 65_536) {
        self.fd = fd
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        flush()
        buffer.deallocate()
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { flush() }
        if bytes.count > capacity {
            writeAll(base, bytes.count)
            return
        }
        (buffer + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Writes `bytes` and a line feed.
    func writeLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(bytes)
        if count + 1 > capacity { flush() }
        buffer[count] = 0x0A
        count += 1
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    func flush() {
        writeAll(buffer, count)
        count = 0
    }

    private func writeAll(_ base: UnsafePointer<UInt8>, _ total: Int) {
        guard failure == nil, total > 0 else { return }
        do throws(Errno) {
            try Syscall.writeAll(fd, UnsafeRawBufferPointer(start: base, count: total))
        } catch {
            failure = error
        }
    }
}

/// What a command says and exits with when its output could not be written (a full disk,
/// `/dev/full`, a closed file): whatever it had left to write is lost, and a document (GPX)
/// is left without its end.
func outputFailed(_ error: Errno, format: OutputFormat? = nil) -> ExitCode {
    let incomplete = format == .gpx ? "; the GPX document is incomplete (its end could not be written)" : ""
    printError("cannot write the output: \(error)\(incomplete)")
    return .ioError
}
