import Platform

/// An open serial device, set up for a GPS receiver: raw 8N1, no flow control, held
/// exclusively.
///
/// Opening takes the device exclusively (`TIOCEXCL`, and an advisory `flock` that also
/// stops other root processes that ask for it), saves its settings and sets raw 8N1 at the
/// requested speed. ``close()`` undoes all of it and closes the descriptor, once. A reader
/// hands the descriptor to its ``DeviceReadLoop``, which closes it; the reader only calls
/// ``restore()``.
final class SerialPort {
    /// The device's path, as given.
    let path: String
    /// The open descriptor (non-blocking).
    let descriptor: Int32
    /// `false` when the device could only be opened for reading.
    let isWritable: Bool
    private let saved: TerminalSettings
    private var isRestored = false
    /// Until it is closed or handed over.
    private var ownsDescriptor = true

    /// Opens `path` and sets it up at `speed` bits per second (`nil` keeps the device's
    /// current speed).
    init(path: String, speed: Int?) throws(GPSError) {
        self.path = path
        if let speed, Syscall.terminalSpeedConstant(speed) == nil { throw .unsupportedSpeed(path: path, speed: speed) }
        var writable = true
        let fd: Int32
        do throws(Errno) {
            do throws(Errno) {
                fd = try Syscall.open(path, [.readWrite, .noControllingTerminal, .nonBlocking, .closeOnExec])
            } catch where error == .permissionDenied || error == .readOnlyFileSystem {
                // Some setups allow reading only; a GPS needs nothing written to it.
                fd = try Syscall.open(path, [.readOnly, .noControllingTerminal, .nonBlocking, .closeOnExec])
                writable = false
            }
        } catch {
            throw GPSError.opening(path, errno: error)
        }
        // A terminal is what answers tcgetattr (isatty asks the same question, but inside
        // glibc, where umockdev's emulated devices cannot answer it).
        let settings: TerminalSettings
        do throws(Errno) {
            settings = try Syscall.terminalSettings(fd)
        } catch {
            Syscall.close(fd)
            throw error == .notATerminal || error == .invalidArgument ? .notATerminal(path: path) : .openFailed(path: path, errno: error)
        }
        // TIOCEXCL keeps other non-root processes out; flock tells cooperating processes
        // (gpsd and others that lock) that it is taken, root included.
        do throws(Errno) {
            try Self.lock(fd)
        } catch {
            Syscall.close(fd)
            throw error == .wouldBlock ? .busy(path: path, holders: GPSError.processesHolding(path)) : .openFailed(path: path, errno: error)
        }
        Syscall.setExclusive(fd, true)
        descriptor = fd
        isWritable = writable
        saved = settings
        do throws(GPSError) {
            try configure(speed: speed)
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// How long a lock held by someone else is waited for before the device is busy.
    static let lockWait = Duration.milliseconds(200)

    /// Takes the device's lock, waiting up to ``lockWait`` for a holder to let go. The lock
    /// belongs to an open file description, which a child being spawned shares between its
    /// fork and its exec (descriptors are closed on exec, not at the fork): a device that this
    /// process closed a moment ago can still be locked by such a child for a few milliseconds,
    /// whatever process spawns it. A real holder keeps it, and the device is busy.
    private static func lock(_ fd: Int32) throws(Errno) {
        let deadline = ContinuousClock.now + lockWait
        while true {
            do throws(Errno) {
                return try Syscall.lockExclusively(fd)
            } catch where error == .wouldBlock && ContinuousClock.now < deadline {
                ThreadPause.sleep(.milliseconds(2))
            }
        }
    }

    /// Sets raw 8N1 with the receiver enabled and modem lines ignored, no flow control, at
    /// `speed` bits per second (`nil`: the current speed), and drops unread input unless told
    /// not to (a read loop on another thread may have been told of it, and must find it).
    func configure(speed: Int?, discardingInput: Bool = true) throws(GPSError) {
        guard let settings = Syscall.raw8N1(saved, bitsPerSecond: speed) else { throw .unsupportedSpeed(path: path, speed: speed ?? 0) }
        do throws(Errno) {
            try Syscall.setTerminalSettings(descriptor, settings)
        } catch {
            throw .openFailed(path: path, errno: error)
        }
        if discardingInput { Syscall.discardInput(descriptor) }
    }

    /// The speed the device is set to now, or `nil` for one outside ``SerialSpeed/supported``.
    var currentSpeed: Int? {
        guard let settings = try? Syscall.terminalSettings(descriptor) else { return nil }
        return Syscall.terminalSpeed(settings)
    }

    /// Waits until the line's DCD (carrier detect) changes (`TIOCMIWAIT`), for receivers
    /// that signal their pulse per second there: the system time read as the wait returned,
    /// and whether DCD is now asserted. Fails with the error the line gave (a pseudo-terminal
    /// has no modem lines).
    func waitForCarrierChange() throws(Errno) -> (time: UTCTime, asserted: Bool) {
        let change = try Syscall.waitForCarrierChange(descriptor)
        return (UTCTime(posixSeconds: change.seconds, nanoseconds: change.nanoseconds), change.asserted)
    }

    /// Releases exclusivity and restores the settings found on opening, leaving the descriptor
    /// open (for a read loop that took it over, and closes it); does nothing the second time.
    func restore() {
        guard !isRestored else { return }
        isRestored = true
        Syscall.setExclusive(descriptor, false)
        try? Syscall.setTerminalSettings(descriptor, saved)
    }

    /// Gives the descriptor to whoever closes it (a read loop): from now on ``close()`` only
    /// restores the device's settings.
    func handOver() -> Int32 {
        ownsDescriptor = false
        return descriptor
    }

    /// ``restore()``, then closes the descriptor unless it was handed over; does nothing the
    /// second time.
    func close() {
        restore()
        guard ownsDescriptor else { return }
        ownsDescriptor = false
        Syscall.close(descriptor)
    }
}
