import Platform

/// An open log's descriptor and its read buffer: what both log sources (``LogByteSource``, and
/// ``FollowedLog``'s, which reads a file as it grows) read through. Opened once, read one chunk
/// at a time, closed once; confined to the reader's queue, as its owner is.
struct LogFile {
    let log: RecordedLog
    private var descriptor: Int32
    private var buffer: UnsafeMutableRawBufferPointer?

    /// Opens `log` (standard input for `-`) with a buffer of its chunk size.
    init(_ log: RecordedLog) throws(RecordedLogError) {
        self.log = log
        descriptor = try log.openDescriptor()
        buffer = .allocate(byteCount: log.chunkSize, alignment: 16)
    }

    /// Whether it is open (not closed yet).
    var isOpen: Bool { buffer != nil }

    /// The next chunk, valid until the next call; empty at the end of the file (for now, for
    /// a file that grows). Fails with the read's error, as the log's.
    mutating func read() throws(RecordedLogError) -> UnsafeRawBufferPointer {
        guard let buffer else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        do throws(Errno) {
            let count = try Syscall.read(descriptor, into: buffer)
            return UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        } catch {
            throw RecordedLogError(location: log.location, errno: error, operation: .read)
        }
    }

    /// The file's size now, when it can be told.
    var size: Int? { try? Syscall.status(descriptor).size }

    /// Opens the file again, from its start (a file that shrank), in place of this descriptor.
    mutating func reopen() throws(RecordedLogError) {
        let fresh = try log.openDescriptor()
        closeDescriptor()
        descriptor = fresh
    }

    /// Closes it and frees its buffer; whether it was open.
    mutating func close() -> Bool {
        guard let buffer else { return false }
        self.buffer = nil
        buffer.deallocate()
        closeDescriptor()
        return true
    }

    private func closeDescriptor() {
        if descriptor != Syscall.standardInput { Syscall.close(descriptor) }
    }
}
