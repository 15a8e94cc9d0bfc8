import CPlatform
import Synchronization

/// The pulse per second of a receiver that signals it on its serial line's DCD (carrier
/// detect) pin, as many GPS boards and timing receivers do: each assert edge's system time,
/// read with `TIOCMIWAIT` on a descriptor of its own, beside the reader's (nothing is read
/// from it, and the line's settings are left alone).
///
/// The device is opened a second time for this, so the reader's exclusive hold (`TIOCEXCL`)
/// lets only root do it; a process that is not root gets `EBUSY`, and can use the kernel's
/// line discipline instead (`ldattach PPS /dev/ttyS0` makes a `/dev/ppsN`). A wait has no
/// time-out: ``stop()`` ends it with a signal to the waiting thread (SIGRTMIN + 7, whose
/// handler does nothing: see `nmeastream_prepare_interrupt`).
public final class CarrierDetectPulses: Sendable {
    /// The device's path.
    public let path: String
    private let descriptor: Int32
    private let waiting = Mutex<pthread_t?>(nil)
    private let stopped = Atomic<Bool>(false)

    /// Opens `path` for its modem lines; fails when it cannot be opened (`EBUSY` for a
    /// process that is not root, while the reader holds it), or has no DCD to watch (a
    /// pseudo-terminal, a USB adapter without modem lines).
    public init(path: String) throws(CarrierDetectError) {
        self.path = path
        let fd: Int32
        do throws(Errno) {
            fd = try Syscall.open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw CarrierDetectError(path: path, errno: error)
        }
        // Checked before the descriptor is the object's: an initializer that throws once every
        // property is set runs deinit, which would close it a second time (and with it
        // whatever another thread had opened under the same number meanwhile).
        guard nmeastream_has_modem_lines(fd) == 1 else {
            let error = Errno.current
            Syscall.close(fd)
            throw CarrierDetectError(path: path, errno: error, hasNoModemLines: true)
        }
        descriptor = fd
        nmeastream_prepare_interrupt()
    }

    deinit { Syscall.close(descriptor) }

    /// Waits for DCD's next assert edge: its system time; `nil` once stopped. Throws what the
    /// line failed with.
    public func nextAssert() throws(Errno) -> UTCTime? {
        waiting.withLock { $0 = pthread_self() }
        defer { waiting.withLock { $0 = nil } }
        while !stopped.load(ordering: .acquiring) {
            var when = timespec()
            var asserted: Int32 = 0
            guard nmeastream_wait_dcd_change(descriptor, &when, &asserted) == 0 else {
                let error = Errno.current
                if error == .interrupted { continue }
                throw error
            }
            if asserted != 0 { return UTCTime(posixSeconds: Int64(when.tv_sec), nanoseconds: Int64(when.tv_nsec)) }
        }
        return nil
    }

    /// Ends the wait under way (and every later one), and returns once it has ended. The
    /// signal is sent again until the waiting thread has left, as one sent just before it
    /// entered the wait would be lost.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        while let thread = waiting.withLock({ $0 }) {
            _ = nmeastream_interrupt_thread(thread)
            usleep(1_000)
        }
    }
}

/// Why a line's DCD cannot be watched.
public struct CarrierDetectError: Error, CustomStringConvertible {
    /// The device's path.
    public var path: String
    /// The system's error.
    public var errno: Errno
    /// Whether the device opened but has no modem lines (`TIOCMGET` fails).
    public var hasNoModemLines = false

    public var description: String {
        if hasNoModemLines { return "\(path) has no modem lines, so no DCD to watch (a pseudo-terminal, or a USB adapter without them)" }
        if errno == .busy { return "\(path) is held by its reader: only root can open it beside it; or make a PPS device of it with ldattach PPS" }
        return "cannot open \(path) to watch its DCD: \(errno)"
    }
}
