import CPlatform

/// Thin wrappers over the system calls the byte sources make: each retries when a signal
/// interrupts it and throws the ``Errno`` it failed with.
package enum Syscall {
    /// Opens `path` with `flags` (no mode: nothing here creates a file).
    package static func open(_ path: String, _ flags: Int32) throws(Errno) -> Int32 {
        try retrying { nmeastream_open(path, flags) }
    }

    /// Opens `path` with `flags`, creating it with `mode` if it does not exist.
    package static func create(_ path: String, _ flags: Int32, mode: mode_t) throws(Errno) -> Int32 {
        try retrying { nmeastream_create(path, flags, mode) }
    }

    /// The names in the folder at `path` (`.` and `..` left out), or `nil` when it cannot be
    /// listed.
    package static func directoryEntries(_ path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Reads into `buffer`: the count read, 0 at the end of the file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { CPlatform.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes as much of `bytes` as the descriptor takes at once: the count written.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying { CPlatform.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes`, or throws with what stopped it (``Errno/wouldBlock`` on a full
    /// non-blocking descriptor).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Closes `fd`. (Not retried: on Linux the descriptor is released even when close is
    /// interrupted, and a retry could close one opened meanwhile.)
    package static func close(_ fd: Int32) {
        _ = CPlatform.close(fd)
    }

    /// Calls `body` until a signal does not interrupt it: its result, or the error it set.
    package static func retrying<Result: BinaryInteger>(_ body: () -> Result) throws(Errno) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }
}
