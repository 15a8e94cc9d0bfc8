import CPlatform

/// The kind of file at a path, as `stat` (or `lstat`) reports it.
package enum FileKind: Sendable, Equatable {
    case regular
    case directory
    case symbolicLink
    case characterDevice
    case other

    init(mode: mode_t) {
        switch mode & mode_t(S_IFMT) {
        case mode_t(S_IFREG): self = .regular
        case mode_t(S_IFDIR): self = .directory
        case mode_t(S_IFLNK): self = .symbolicLink
        case mode_t(S_IFCHR): self = .characterDevice
        default: self = .other
        }
    }
}

/// What `stat` tells of a file, as far as the package asks.
package struct FileStatus: Sendable {
    package var kind: FileKind
    /// Its size in bytes.
    package var size: Int
    /// Its owning group's ID.
    package var groupID: gid_t

    init(_ info: stat) {
        kind = FileKind(mode: info.st_mode)
        size = Int(info.st_size)
        groupID = info.st_gid
    }
}

/// Files, folders and links: thin wrappers, each throwing the ``Errno`` it failed with.
extension Syscall {
    /// The status of the file at `path`, links followed.
    package static func status(_ path: String) throws(Errno) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// The status of the file at `path` itself, a link not followed.
    package static func linkStatus(_ path: String) throws(Errno) -> FileStatus {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// The status of the open file `fd`.
    package static func status(_ fd: Int32) throws(Errno) -> FileStatus {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// Whether something exists at `path` (a dangling link does not).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Makes the folder `path` with `mode`; one already there is no error.
    package static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        guard mkdir(path, mode) != 0 else { return }
        let error = Errno.current
        if error != .exists { throw error }
    }

    /// Removes the file or link at `path`; one already gone is no error.
    package static func remove(_ path: String) throws(Errno) {
        guard unlink(path) != 0 else { return }
        let error = Errno.current
        if error != .noSuchFile { throw error }
    }

    /// Makes a symbolic link at `path` to `target`.
    package static func symbolicLink(_ path: String, to target: String) throws(Errno) {
        guard symlink(target, path) == 0 else { throw Errno.current }
    }

    /// Where the symbolic link at `path` points, or `nil` when it is no link (or unreadable).
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with every link resolved, or `path` itself when it cannot be.
    package static func resolvedPath(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// The whole content of the file at `path`.
    package static func readFile(_ path: String) throws(Errno) -> [UInt8] {
        let fd = try open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { chunk.deallocate() }
        var result: [UInt8] = []
        while true {
            let count = try read(fd, into: chunk)
            if count == 0 { return result }
            result += chunk[..<count]
        }
    }
}

/// Datagram sockets in the Unix domain.
extension Syscall {
    /// An unbound Unix datagram socket (closed on exec).
    package static func unixDatagramSocket() throws(Errno) -> Int32 {
        try retrying { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// Sends `bytes` as one datagram from `fd` to the socket at `path`.
    package static func sendDatagram(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to path: String) throws(Errno) {
        _ = try retrying { nmeastream_send_datagram(fd, path, bytes.baseAddress, bytes.count) }
    }
}
