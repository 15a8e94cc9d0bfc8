import CPlatform
import Dispatch
import Signals
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair standing in for a serial GPS: the code under test opens
/// ``devicePath`` (the slave) as it would `/dev/ttyACM0`; the test writes the receiver's
/// output into ``master``.
public final class PseudoTerminal {
    /// The master side's descriptor.
    public let master: Int32
    /// The slave side's path, such as `/dev/pts/3`.
    public let devicePath: String
    /// A descriptor on the slave that this object holds for its whole life, so that the
    /// terminal's number is not given to another test's terminal (tests run in parallel) once
    /// the master is closed: a count of the descriptors open on ``devicePath`` would otherwise
    /// count that test's. ``openDescriptorTargets()`` leaves it out.
    private let slaveHold: Int32
    private var isClosed = false

    public init() throws {
        // The library's own call (CPlatform), so the tests open terminals as it does.
        var number: UInt32 = 0
        master = nmeastream_open_pseudoterminal(&number)
        guard master >= 0 else { throw PseudoTerminalError(errno: errno) }
        devicePath = "/dev/pts/\(number)"
        slaveHold = open(devicePath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard slaveHold >= 0 else {
            let code = errno
            close(master)
            throw PseudoTerminalError(errno: code)
        }
        heldSlaves.withLock { _ = $0.insert(slaveHold) }
    }

    deinit {
        closeMaster()
        heldSlaves.withLock { _ = $0.remove(slaveHold) }
        close(slaveHold)
    }

    /// Writes all of `bytes` to the master side.
    public func write(_ bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let written = array[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
    }

    /// What the code under test wrote to the device side: up to `count` bytes, read until
    /// they have come or `seconds` have passed.
    public func read(upTo count: Int, seconds: Double) -> [UInt8] {
        var bytes: [UInt8] = []
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < count {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { break }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(100, (deadline - now) / 1_000_000 + 1))) > 0 else { continue }
            let got = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, min($0.count, count - bytes.count)) }
            if got > 0 { bytes += chunk[..<got] } else if got == 0 || (errno != EINTR && errno != EAGAIN) { break }
        }
        return bytes
    }

    /// Writes all of `bytes` to the master side unless nobody reads the other side for
    /// `seconds` (its buffer stays full: the reader is gone); whether all were written.
    public func write(_ bytes: some Collection<UInt8>, seconds: Double) -> Bool {
        let array = Array(bytes)
        var offset = 0
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let deadline = now() + seconds
        while offset < array.count {
            var descriptor = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
            let left = deadline - now()
            guard left > 0, poll(&descriptor, 1, Int32(left * 1000)) > 0 else { return false }
            let flags = fcntl(master, F_GETFL)
            _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
            let written = array[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            _ = fcntl(master, F_SETFL, flags)
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Whether the slave side is in raw mode (no line editing), as a serial reader sets it.
    /// Terminal-attribute requests on the master act on the slave.
    private var slaveIsRaw: Bool {
        var settings = termios()
        guard tcgetattr(master, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ICANON) == 0
    }

    /// Waits, up to five seconds, until the slave is in raw mode, and then 20 ms more; false
    /// on timeout. A serial reader sets raw mode and then drops unread input, as it should
    /// with a real receiver: bytes written before that may be lost. The flush follows raw
    /// mode at once; the pause covers the gap between the two calls on a loaded machine.
    public func waitUntilConfigured() -> Bool {
        for _ in 0..<5000 {
            if slaveIsRaw {
                usleep(20_000)
                return true
            }
            usleep(1000)
        }
        return false
    }

    /// Closes the master side: the slave's reader sees the device go away.
    public func closeMaster() {
        guard !isClosed else { return }
        isClosed = true
        close(master)
    }
}

/// A pseudo-terminal could not be made.
public struct PseudoTerminalError: Error {
    /// Why.
    public var errno: Int32
}

/// The slave descriptors the ``PseudoTerminal``s hold (see its `slaveHold`).
// A lock ThreadSanitizer sees (PLATFORM-NOTES: Mutex gives it false reports).
private let heldSlaves = Protected<Set<Int32>>([])

/// The paths the process's open descriptors point to, from `/proc/self/fd`, leaving out the
/// descriptors the ``PseudoTerminal``s hold on their own slaves.
public func openDescriptorTargets() -> [String] {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    let held = heldSlaves.withLock { $0 }
    var targets: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard name != ".", name != "..", !(Int32(name).map(held.contains) ?? false) else { continue }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(name)", &buffer, buffer.count - 1)
        if count > 0 { targets.append(String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
    }
    return targets
}

/// How many of the process's descriptors are open on `path`.
public func openDescriptorCount(_ path: String) -> Int {
    openDescriptorTargets().count { $0 == path }
}
