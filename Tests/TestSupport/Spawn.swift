#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end with no output, and returns its exit status; `nil` when it
/// cannot be started.
///
/// For programs that leave a daemon behind (tmux starts its server so): Foundation's `Process`
/// learns that its child ended from a descriptor the child inherits, which such a daemon then
/// holds open, so `waitUntilExit()` never returns. Here the child is waited for by its pid.
public func spawnAndWait(_ executable: String, _ arguments: [String]) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        guard errno == EINTR else { return nil }
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
}
