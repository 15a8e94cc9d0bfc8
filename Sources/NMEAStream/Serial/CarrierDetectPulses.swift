import Platform
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
/// handler does nothing: see `InterruptibleThread`).
public final class CarrierDetectPulses: Sendable {
    /// The device's path.
    public let path: String
    private let descriptor: Int32
    private let waiting = Protected<InterruptibleThread?>(nil)
    private let stopped = Atomic<Bool>(false)

    /// Opens `path` for its modem lines; fails when it cannot be opened (`EBUSY` for a
    /// process that is not root, while the reader holds it), or has no DCD to watch (a
    /// pseudo-terminal, a USB adapter without modem lines).
    public init(path: String) throws(CarrierDetectError) {
        self.path = path
        let fd: Int32
        do throws(Errno) {
            fd = try Syscall.open(path, [.readOnly, .noControllingTerminal, .nonBlocking, .closeOnExec])
        } catch {
            throw CarrierDetectError(path: path, errno: error)
        }
        // Checked before the descriptor is the object's: an initializer that throws once every
        // property is set runs deinit, which would close it a second time (and with it
        // whatever another thread had opened under the same number meanwhile).
        do throws(Errno) {
            try Syscall.checkModemLines(fd)
        } catch {
            Syscall.close(fd)
            throw CarrierDetectError(path: path, errno: error, hasNoModemLines: true)
        }
        descriptor = fd
    }

    deinit { Syscall.close(descriptor) }

    /// Waits for DCD's next assert edge: its system time; `nil` once stopped. Throws what the
    /// line failed with.
    public func nextAssert() throws(Errno) -> UTCTime? {
        waiting.withLock { $0 = InterruptibleThread.current }
        defer { waiting.withLock { $0 = nil } }
        while !stopped.load(ordering: .acquiring) {
            let change: (seconds: Int64, nanoseconds: Int64, asserted: Bool)
            do throws(Errno) {
                change = try Syscall.waitForCarrierChange(descriptor)
            } catch where error == .interrupted {
                continue
            }
            if change.asserted { return UTCTime(posixSeconds: change.seconds, nanoseconds: change.nanoseconds) }
        }
        return nil
    }

    /// Ends the wait under way (and every later one), and returns once it has ended. The
    /// signal is sent again until the waiting thread has left, as one sent just before it
    /// entered the wait would be lost.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        while let thread = waiting.withLock({ $0 }) {
            thread.interrupt()
            ThreadPause.sleep(.milliseconds(1))
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
