import CPlatform

/// Terminals and serial lines: thin wrappers, each throwing the ``Errno`` it failed with.
/// (Building a `termios` value, as `cfmakeraw` and `cfsetispeed` do, is no system call: the
/// serial port does that itself.)
extension Syscall {
    /// The settings of the terminal `fd` (`tcgetattr`); fails with ``Errno/notATerminal``
    /// (or, from some drivers, ``Errno/invalidArgument``) for anything else.
    package static func terminalSettings(_ fd: Int32) throws(Errno) -> termios {
        var settings = termios()
        _ = try retrying { tcgetattr(fd, &settings) }
        return settings
    }

    /// Applies `settings` to the terminal `fd` now (`tcsetattr`, `TCSANOW`).
    package static func setTerminalSettings(_ fd: Int32, _ settings: termios) throws(Errno) {
        var settings = settings
        _ = try retrying { tcsetattr(fd, TCSANOW, &settings) }
    }

    /// Drops what the terminal `fd` received and nobody read yet (`tcflush`, `TCIFLUSH`).
    package static func discardInput(_ fd: Int32) {
        _ = tcflush(fd, TCIFLUSH)
    }

    /// Takes an exclusive advisory lock on `fd` without waiting (`flock`, `LOCK_EX | LOCK_NB`):
    /// fails with ``Errno/wouldBlock`` when another process holds one.
    package static func lockExclusively(_ fd: Int32) throws(Errno) {
        _ = try retrying { flock(fd, LOCK_EX | LOCK_NB) }
    }

    /// Makes the terminal `fd` exclusive (`TIOCEXCL`: no other open but root's succeeds), or
    /// no longer (`TIOCNXCL`). Best effort: a terminal that refuses stays as it was.
    package static func setExclusive(_ fd: Int32, _ exclusive: Bool) {
        _ = nmeastream_ioctl(fd, UInt(exclusive ? TIOCEXCL : TIOCNXCL))
    }

    /// Whether `fd` is a terminal (`isatty`).
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The size of the terminal at `fd` in character cells (`TIOCGWINSZ`); `nil` when it is
    /// not a terminal or does not say (a size of 0).
    package static func terminalSize(_ fd: Int32) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard nmeastream_window_size(fd, &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// This process's ID.
    package static var processID: Int32 { getpid() }
}

extension Syscall {
    /// Opens a new pseudo-terminal's master side (read-write, no controlling terminal, closed on
    /// exec) and unlocks its device side: the master's descriptor and the device's number
    /// (`/dev/pts/N`).
    package static func openPseudoterminal() throws(Errno) -> (master: Int32, number: UInt32) {
        var number: UInt32 = 0
        let fd = nmeastream_open_pseudoterminal(&number)
        guard fd >= 0 else { throw Errno.current }
        return (fd, number)
    }

    /// Adds `O_NONBLOCK` to `fd`'s status flags.
    package static func setNonBlocking(_ fd: Int32) throws(Errno) {
        _ = try retrying { nmeastream_set_nonblocking(fd) }
    }

    /// `settings` made raw (`cfmakeraw`): no echo, no line editing, no translation. Builds a
    /// value only.
    package static func raw(_ settings: TerminalSettings) -> TerminalSettings {
        var settings = settings
        cfmakeraw(&settings)
        return settings
    }
}
