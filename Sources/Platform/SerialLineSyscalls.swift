import CPlatform

/// A serial line's settings (`struct termios`), as read and applied whole.
package typealias TerminalSettings = termios

/// Serial lines: their settings, their modem lines, and the kernel's PPS devices.
extension Syscall {
    /// The termios constant for a speed in bits per second, or `nil` for one the package does
    /// not set (it sets 4800 to 921600).
    package static func terminalSpeedConstant(_ bitsPerSecond: Int) -> speed_t? {
        switch bitsPerSecond {
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 921600: speed_t(B921600)
        default: nil
        }
    }

    /// The speed in bits per second that `settings` receive at, or `nil` for one of the
    /// constants ``terminalSpeedConstant(_:)`` does not give.
    package static func terminalSpeed(_ settings: TerminalSettings) -> Int? {
        var settings = settings
        let constant = cfgetispeed(&settings)
        return [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600].first { terminalSpeedConstant($0) == constant }
    }

    /// `settings` made raw 8N1 with the receiver enabled and modem lines ignored, no flow
    /// control, a read returning what is there (no minimum, no timer), at `bitsPerSecond`
    /// (`nil`: the speed they had); `nil` for a speed ``terminalSpeedConstant(_:)`` refuses.
    /// Builds a value only: nothing is applied.
    package static func raw8N1(_ settings: TerminalSettings, bitsPerSecond: Int?) -> TerminalSettings? {
        var settings = settings
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if let bitsPerSecond {
            guard let constant = terminalSpeedConstant(bitsPerSecond) else { return nil }
            cfsetispeed(&settings, constant)
            cfsetospeed(&settings, constant)
        }
        return settings
    }

    /// Whether `fd` is a line with modem control lines (`TIOCMGET` answers); throws what it
    /// failed with (a pseudo-terminal has none).
    package static func checkModemLines(_ fd: Int32) throws(Errno) {
        guard nmeastream_has_modem_lines(fd) == 1 else { throw Errno.current }
    }

    /// Waits until the line's DCD (carrier detect) changes (`TIOCMIWAIT`): the system time
    /// read as the wait returned, and whether DCD is now asserted. ``Errno/interrupted`` when
    /// ``InterruptibleThread/interrupt()`` ended the wait.
    package static func waitForCarrierChange(_ fd: Int32) throws(Errno) -> (seconds: Int64, nanoseconds: Int64, asserted: Bool) {
        var when = timespec()
        var asserted: Int32 = 0
        guard nmeastream_wait_dcd_change(fd, &when, &asserted) == 0 else { throw Errno.current }
        return (Int64(when.tv_sec), Int64(when.tv_nsec), asserted != 0)
    }

    /// Waits up to `timeout` seconds for the next assert edge on the kernel PPS device `fd`
    /// (`PPS_FETCH`): its system time and the kernel's sequence number; `nil` when none came.
    package static func fetchPulse(_ fd: Int32, timeout: Double) throws(Errno) -> (seconds: Int64, nanoseconds: Int64, sequence: UInt32)? {
        var time = timespec()
        var sequence: UInt32 = 0
        guard nmeastream_pps_fetch(fd, timeout, &time, &sequence) == 0 else {
            let error = Errno.current
            if error == .timedOut { return nil }
            throw error
        }
        return (Int64(time.tv_sec), Int64(time.tv_nsec), sequence)
    }
}

/// A thread that another one can knock out of a blocking call (``Syscall/waitForCarrierChange(_:)``):
/// a real-time signal (SIGRTMIN + 7) whose handler does nothing, so the call fails with
/// ``Errno/interrupted``.
package struct InterruptibleThread: Sendable {
    private let thread: pthread_t

    /// The calling thread; installs the signal's handler once per process.
    package static var current: InterruptibleThread {
        nmeastream_prepare_interrupt()
        return InterruptibleThread(thread: pthread_self())
    }

    /// Sends the signal to the thread.
    package func interrupt() { _ = nmeastream_interrupt_thread(thread) }
}
