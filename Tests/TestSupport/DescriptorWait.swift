#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Waits until `count` of the process's descriptors are open on `path` (as
/// ``openDescriptorCount(_:)`` counts them), at most `seconds`: whether it came. The kernel
/// wakes the wait when the file is opened or closed (inotify), so nothing is asked on a
/// clock; a file that cannot be watched is counted once.
public func waitForDescriptors(on path: String, count: Int, seconds: Double = 10) -> Bool {
    let notices = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard notices >= 0 else { return openDescriptorCount(path) == count }
    defer { close(notices) }
    guard inotify_add_watch(notices, path, UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)) >= 0 else {
        return openDescriptorCount(path) == count
    }
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var notice = [UInt8](repeating: 0, count: 4096)
    // The open notice comes just before the descriptor is numbered: after a notice that
    // changed nothing yet, the count is asked again 10 ms later.
    var afterNotice = false
    while openDescriptorCount(path) != count {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { return false }
        let left = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
        var poller = pollfd(fd: notices, events: Int16(POLLIN), revents: 0)
        afterNotice = poll(&poller, 1, afterNotice ? min(left, 10) : left) > 0
        while notice.withUnsafeMutableBytes({ read(notices, $0.baseAddress, $0.count) }) > 0 {}
    }
    return true
}

/// Waits until `condition` holds, at most `seconds`: whether it did. It is asked again each
/// time the kernel says that something in the folder `path` is in changed (a file created,
/// written, moved, removed: inotify), or in `path` itself when it is a folder: for what a
/// program writes to a file, or a file it makes. A folder that cannot be watched is asked
/// once.
public func waitForChanges(to path: String, seconds: Double = 10, until condition: () -> Bool) -> Bool {
    var status = stat()
    let isFolder = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    let folder = isFolder ? path : String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let notices = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard notices >= 0 else { return condition() }
    defer { close(notices) }
    let changes = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB
    guard inotify_add_watch(notices, folder.isEmpty ? "/" : folder, UInt32(changes)) >= 0 else { return condition() }
    return waitForNotices(notices, seconds: seconds, until: condition)
}

/// Asks `condition` now and after each inotify notice on `notices` until it holds or
/// `seconds` have passed.
private func waitForNotices(_ notices: Int32, seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var notice = [UInt8](repeating: 0, count: 4096)
    while !condition() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { return false }
        var poller = pollfd(fd: notices, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max))))
        while notice.withUnsafeMutableBytes({ read(notices, $0.baseAddress, $0.count) }) > 0 {}
    }
    return true
}
