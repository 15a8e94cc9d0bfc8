import CPlatform
import Dispatch
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// A program run by its pid, without Foundation's `Process`.
///
/// `Process` learns that its child ended from a descriptor the child inherits: a program
/// that leaves a daemon behind (tmux starts its server so), or one whose descendants keep it,
/// holds it open, and `waitUntilExit()` then never returns. Here the child is waited for by
/// its pid, on a thread of its own that the child's end wakes (`waitpid`), so that a test
/// waits for that end rather than asking whether it came.
public final class ChildProcess: Sendable {
    /// The child's process ID.
    public let pid: pid_t
    /// Its wait status, once it ended.
    private let status = Protected<Int32?>(nil)
    /// Signalled once, when it ended (and again by each wait, for the next).
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments`, its standard input from the file at `inputPath`,
    /// its output to the file at `outputPath` and its errors to the file at `errorPath` (each
    /// /dev/null when not given). An input that is a FIFO is opened read-write, which does not
    /// wait for a writer (the spawning thread waits for the child to start): the test writes
    /// to it when it likes, and the child never sees its end.
    public init(_ executable: String, _ arguments: [String], inputPath: String? = nil, outputPath: String? = nil,
                errorPath: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath ?? "/dev/null", inputPath == nil ? O_RDONLY : O_RDWR, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else of this process's: a child holding a test server's listening socket
        // would keep its port after the server stopped.
        _ = nmeastream_spawn_close_from(&actions, 3)
        // The child starts with no signal blocked and the usual dispositions: the thread that
        // spawns it may block some (Dispatch's threads do), and a child that inherits a
        // blocked SIGTERM never ends on one.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError(code: result) }
        self.pid = pid
        Thread.detachNewThread { [pid, status, ended] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            status.withLock { $0 = raw }
            ended.signal()
        }
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    /// Whether it still runs.
    public var isRunning: Bool { status.withLock { $0 } == nil }

    /// Sends SIGTERM.
    public func terminate() { if isRunning { kill(pid, SIGTERM) } }

    /// Waits up to `seconds` for it to end: whether it did.
    public func exits(within seconds: Double) -> Bool {
        guard ended.wait(timeout: .now() + seconds) == .success else { return false }
        ended.signal()
        return true
    }

    /// Waits for it to end; its exit status, or -1 when a signal ended it.
    @discardableResult
    public func waitForExit() -> Int32 {
        ended.wait()
        ended.signal()
        let raw = status.withLock { $0 } ?? 0
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : -1
    }
}

/// `posix_spawn` failed with this error number.
public struct SpawnError: Error {
    /// The error number.
    public var code: Int32
}

/// Runs a program to its end with no output, and returns its exit status; `nil` when it
/// cannot be started (see ``ChildProcess`` for why not Foundation's `Process`).
public func spawnAndWait(_ executable: String, _ arguments: [String]) -> Int32? {
    guard let child = try? ChildProcess(executable, arguments) else { return nil }
    return child.waitForExit()
}
