import Platform

/// A recorded NMEA log (a file, or standard input), read in chunks.
///
/// This is the file half of the sources the reader will take; it reads synchronously, as fast
/// as the disk allows, and never loads the whole file.
public struct RecordedLog: Sendable {
    /// Where the log comes from.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
        /// A file at this path.
        case file(String)
        /// The process's standard input.
        case standardInput

        /// The path, or `-` for standard input.
        public var description: String {
            switch self {
            case .file(let path): path
            case .standardInput: "-"
            }
        }
    }

    /// Where the log comes from.
    public var location: Location
    /// Bytes read per call (default 64 KiB).
    public var chunkSize: Int

    /// A log at `path`; `-` means standard input.
    public init(path: String, chunkSize: Int = 65_536) {
        location = path == "-" ? .standardInput : .file(path)
        self.chunkSize = max(1, chunkSize)
    }

    /// Reads the log to its end, calling `body` with each chunk.
    public func read(_ body: (UnsafeRawBufferPointer) -> Void) throws(RecordedLogError) {
        try read { chunk in
            body(chunk)
            return .continue
        }
    }

    /// Whether ``read(until:)`` reads on after a chunk.
    public enum ReadDecision: Sendable, Hashable {
        /// Read the next chunk.
        case `continue`
        /// Stop here: the rest is not read (a pipe or a FIFO is not waited on again).
        case stop
    }

    /// Reads the log chunk by chunk until its end or until `body` returns ``ReadDecision/stop``.
    public func read(until body: (UnsafeRawBufferPointer) -> ReadDecision) throws(RecordedLogError) {
        let fd = try openDescriptor()
        defer { if case .file = location { Syscall.close(fd) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do throws(Errno) {
                count = try Syscall.read(fd, into: buffer)
            } catch {
                throw RecordedLogError(location: location, errno: error, operation: .read)
            }
            if count == 0 { return }
            if body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) == .stop { return }
        }
    }
}

/// A recorded log could not be opened or read.
public struct RecordedLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: Sendable, Hashable {
        /// Opening the file.
        case open
        /// Reading it.
        case read
    }

    /// The log.
    public var location: RecordedLog.Location
    /// The system's error.
    public var errno: Errno
    /// What failed.
    public var operation: Operation

    /// One line: what failed, why, and what to do.
    public var description: String {
        switch (operation, errno) {
        case (.open, .noSuchFile): return "cannot open \(location): no such file; check the path"
        case (.open, .permissionDenied): return "cannot open \(location): permission denied; check the file's permissions"
        case (.open, .isDirectory): return "cannot open \(location): it is a directory; give a log file"
        case (.open, _): return "cannot open \(location): \(errno)"
        case (.read, _): return "cannot read \(location): \(errno)"
        }
    }
}

extension RecordedLog {
    /// Opens the log for reading: standard input, or the file (which must not be a
    /// directory). The caller closes a file's descriptor.
    func openDescriptor() throws(RecordedLogError) -> Int32 {
        switch location {
        case .standardInput:
            return Syscall.standardInput
        case .file(let path):
            let fd: Int32
            do throws(Errno) {
                fd = try Syscall.open(path, [.readOnly, .closeOnExec])
            } catch {
                throw RecordedLogError(location: location, errno: error, operation: .open)
            }
            if (try? Syscall.status(fd))?.kind == .directory {
                Syscall.close(fd)
                throw RecordedLogError(location: location, errno: .isDirectory, operation: .open)
            }
            return fd
        }
    }
}
