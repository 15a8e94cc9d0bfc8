import CPlatform
import Dispatch
import Signals
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair standing in for a serial GPS: the code under test opens
/// ``devicePath`` (the slave) as it would `/dev/ttyACM0`; the test writes the receiver's
/// output into ``master``, and reads what the code wrote with ``read(upTo:seconds:)`` (the
/// master is in packet mode: read directly, it gives status bytes among the data).
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
    // Read from the master (in packet mode) and not yet returned by read(upTo:seconds:); the
    // flushes of the device side's input not yet waited for. For one thread at a time.
    private var unread: [UInt8] = []
    private var flushesNotWaitedFor = 0

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
        // Packet mode: the master is told when the device side's input is flushed, as a
        // reader does once it has set the device up (see waitUntilConfigured()).
        var on: Int32 = 1
        _ = ioctl(master, UInt(TIOCPKT), &on)
    }

    deinit {
        closeMaster()
        parkSlave(slaveHold)
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
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while unread.count < count, let left = Self.milliseconds(until: deadline) {
            _ = takePacket(waiting: left)
        }
        let bytes = Array(unread.prefix(count))
        unread.removeFirst(bytes.count)
        return bytes
    }

    /// Reads the master's next packet, waiting up to `milliseconds` for it: the device side's
    /// bytes are kept for ``read(upTo:seconds:)``, a flush of its input is counted. Whether
    /// one came.
    private func takePacket(waiting milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: master, events: Int16(POLLIN | POLLPRI), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var packet = [UInt8](repeating: 0, count: 4097)
        let got = packet.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        guard got > 0 else { return false }
        // A packet starts with TIOCPKT_DATA (0) and the bytes, or is one byte of status bits.
        if packet[0] == 0 {
            unread += packet[1..<got]
        } else if packet[0] & UInt8(TIOCPKT_FLUSHREAD) != 0 {
            flushesNotWaitedFor += 1
        }
        return true
    }

    /// The milliseconds left until `deadline` (uptime nanoseconds), or `nil` once it passed.
    private static func milliseconds(until deadline: UInt64) -> Int32? {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { return nil }
        return Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
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

    /// Waits, up to `seconds`, until the code under test has set the device up since the last
    /// wait: false on timeout. A serial reader sets raw mode and then drops unread input,
    /// as it should with a real receiver (bytes written before that may be lost); the drop is
    /// what this waits for, told by the kernel to the master in packet mode (`TIOCPKT_FLUSHREAD`).
    public func waitUntilConfigured(seconds: Double = 10) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while flushesNotWaitedFor == 0 {
            guard let left = Self.milliseconds(until: deadline) else { return false }
            _ = takePacket(waiting: left)
        }
        // Flushes close together are told as one: all of them are waited for now.
        flushesNotWaitedFor = 0
        return slaveIsRaw
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

/// How long a terminal's number stays taken after the terminal is gone: a reader that outlives
/// its test for a moment (a child process being stopped, a server retrying the path every
/// second until its test stops it) must not open the next test's terminal under the same
/// path. Seen with six tests at once: another test's `serve`, retrying `/dev/pts/1`, held the
/// new `/dev/pts/1` of a corrections test, whose own `serve` then found it busy.
private let numberQuarantine: UInt64 = 30_000_000_000

/// Slave descriptors of terminals that are gone, each held until its quarantine ends (the
/// kernel gives a number back only once nothing has the terminal open).
private let parkedSlaves = Protected<[(descriptor: Int32, until: UInt64)]>([])

/// Keeps `descriptor` (a gone terminal's slave) open for the quarantine, and closes those
/// whose quarantine is over.
private func parkSlave(_ descriptor: Int32) {
    let now = DispatchTime.now().uptimeNanoseconds
    let expired = parkedSlaves.withLock { parked -> [Int32] in
        let expired = parked.filter { $0.until <= now }.map(\.descriptor)
        parked.removeAll { $0.until <= now }
        parked.append((descriptor, now + numberQuarantine))
        return expired
    }
    for descriptor in expired {
        heldSlaves.withLock { _ = $0.remove(descriptor) }
        close(descriptor)
    }
}

/// The slave descriptors the ``PseudoTerminal``s hold (see its `slaveHold`), and those of gone
/// terminals in quarantine.
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
