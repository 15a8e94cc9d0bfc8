import CPlatform

/// How ``Syscall/open(_:_:)`` opens a file: `open(2)`'s flags, combined with `|`.
package struct OpenFlags: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// `O_RDONLY`: for reading only (the absence of the other access modes).
    package static let readOnly = OpenFlags([])
    /// `O_RDWR`: for reading and writing.
    package static let readWrite = OpenFlags(rawValue: O_RDWR)
    /// `O_WRONLY`: for writing only.
    package static let writeOnly = OpenFlags(rawValue: O_WRONLY)
    /// `O_NOCTTY`: a terminal opened does not become the process's controlling terminal.
    package static let noControllingTerminal = OpenFlags(rawValue: O_NOCTTY)
    /// `O_NONBLOCK`: reads and writes return `EAGAIN` instead of waiting.
    package static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
    /// `O_CLOEXEC`: closed in a child process when it runs another program.
    package static let closeOnExec = OpenFlags(rawValue: O_CLOEXEC)
    /// `O_APPEND`: every write goes to the end of the file.
    package static let append = OpenFlags(rawValue: O_APPEND)
    /// `O_TRUNC`: an existing file is emptied.
    package static let truncate = OpenFlags(rawValue: O_TRUNC)
}

extension Syscall {
    /// Standard input's descriptor.
    package static let standardInput: Int32 = STDIN_FILENO
    /// Standard output's descriptor.
    package static let standardOutput: Int32 = STDOUT_FILENO
    /// Standard error's descriptor.
    package static let standardError: Int32 = STDERR_FILENO

    /// Opens `path` with `flags`, no mode (nothing created).
    package static func open(_ path: String, _ flags: OpenFlags) throws(Errno) -> Int32 {
        try open(path, flags.rawValue)
    }

    /// The name of the group `id`, or `nil` when the system knows none.
    package static func groupName(_ id: gid_t) -> String? {
        guard let group = getgrgid(id), let name = group.pointee.gr_name else { return nil }
        return String(cString: name)
    }
}
