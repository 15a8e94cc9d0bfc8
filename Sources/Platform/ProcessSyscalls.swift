import CPlatform

/// The process's environment variables.
package enum Environment {
    /// The value of `name`, or `nil` when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Removes `name` (not passed on to processes started afterwards).
    package static func remove(_ name: String) {
        unsetenv(name)
    }
}

extension Syscall {
    /// Raises the soft limit on open descriptors to the hard one (what an unprivileged process
    /// may do), and returns the soft limit now (`Int.max` for no limit); `nil` when the system
    /// does not say.
    package static func raiseDescriptorLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones: clamped, it is more than any count.
        return Int(clamping: limit.rlim_cur)
    }

    /// The address family of the socket `fd` is bound to: 4 for IPv4, 6 for IPv6, `nil` for
    /// another family or a descriptor that is not a socket.
    package static func socketIPVersion(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let family = withUnsafeMutablePointer(to: &storage) { pointer -> Int32 in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getsockname(fd, address, &length) == 0 ? Int32(address.pointee.sa_family) : -1
            }
        }
        switch family {
        case AF_INET: return 4
        case AF_INET6: return 6
        default: return nil
        }
    }
}

/// The process signals the command handles, by their POSIX numbers.
package enum ProcessSignal {
    /// `SIGHUP`: the terminal hung up.
    package static let hangUp = SIGHUP
    /// `SIGINT`: Ctrl-C.
    package static let interrupt = SIGINT
    /// `SIGTERM`: asked to stop.
    package static let terminate = SIGTERM
    /// `SIGQUIT`: Ctrl-\.
    package static let quit = SIGQUIT
    /// `SIGUSR1`.
    package static let user1 = SIGUSR1
    /// `SIGUSR2`.
    package static let user2 = SIGUSR2

    /// Ignores `number` (`SIG_IGN`) from now on.
    package static func ignore(_ number: Int32) { nmeastream_ignore_signal(number) }
}

/// Ending the process.
package enum ProcessExit {
    /// Ends the process at once with `status` (`_exit`: no exit handlers, no flushing).
    package static func immediately(_ status: Int32) -> Never { _exit(status) }

    /// Runs `handler` when the process exits normally (`atexit`).
    package static func atExit(_ handler: @convention(c) () -> Void) { atexit(handler) }
}
