import Dispatch
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import NMEAStream

@Suite("Serial port", .mayBlock)
struct SerialPortTests {
    @Test("opens a terminal raw 8N1 at the speed asked, exclusively, and restores it on close, once")
    func openAndClose() throws {
        let terminal = try PseudoTerminal()
        let port = try SerialPort(path: terminal.devicePath, speed: 115200)
        #expect(port.currentSpeed == 115200)
        #expect(port.isWritable)
        var settings = termios()
        #expect(tcgetattr(port.descriptor, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON) == 0)
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(CLOCAL) != 0)
        #expect(settings.c_cflag & tcflag_t(CRTSCTS) == 0)
        #expect(openDescriptorCount(terminal.devicePath) == 1)

        // The bytes the receiver sends arrive unchanged (no line-end translation).
        terminal.write(Array("$GPTXT,01,01,02,hi*00\r\n".utf8))
        let received = readBytes(from: port.descriptor, count: 23)
        #expect(received == Array("$GPTXT,01,01,02,hi*00\r\n".utf8))

        port.close()
        port.close()
        #expect(openDescriptorCount(terminal.devicePath) == 0)
        // The settings found on opening are back (a pty starts with echo and line editing on).
        let again = open(terminal.devicePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        defer { close(again) }
        #expect(tcgetattr(again, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0)
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0)
    }

    @Test("a device held by another opener is busy, and free again once it is closed")
    func busy() throws {
        let terminal = try PseudoTerminal()
        let first = try SerialPort(path: terminal.devicePath, speed: 9600)
        #expect(throws: GPSError.busy(path: terminal.devicePath, holders: [])) {
            try SerialPort(path: terminal.devicePath, speed: 9600)
        }
        first.close()
        let second = try SerialPort(path: terminal.devicePath, speed: 9600)
        second.close()
    }

    @Test("a lock let go within a few milliseconds (a child between fork and exec shares it) is waited for; one held longer makes the device busy")
    func briefLockHolder() throws {
        let terminal = try PseudoTerminal()
        let holder = open(terminal.devicePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(holder >= 0)
        defer { close(holder) }
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        let released = DispatchSemaphore(value: 0)
        // A thread of its own: a busy shared pool must not hold the release back.
        Thread.detachNewThread {
            usleep(10_000)
            flock(holder, LOCK_UN)
            released.signal()
        }
        let port = try SerialPort(path: terminal.devicePath, speed: 9600)
        port.close()
        released.wait()
        // Held past the wait: busy, after about the wait.
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        let start = ContinuousClock.now
        #expect(throws: GPSError.busy(path: terminal.devicePath, holders: [])) {
            try SerialPort(path: terminal.devicePath, speed: 9600)
        }
        #expect(ContinuousClock.now - start >= SerialPort.lockWait)
    }

    @Test("a missing device, a file that is not a terminal, and an unsupported speed each say so")
    func openErrors() throws {
        #expect(throws: GPSError.noSuchDevice(path: "/dev/ttyNMEASTREAM-none")) {
            try SerialPort(path: "/dev/ttyNMEASTREAM-none", speed: 9600)
        }
        let file = "/tmp/nmeastream-not-a-tty-\(getpid())"
        let fd = creat(file, 0o644)
        close(fd)
        defer { unlink(file) }
        #expect(throws: GPSError.notATerminal(path: file)) { try SerialPort(path: file, speed: 9600) }
        #expect(openDescriptorCount(file) == 0)
        let terminal = try PseudoTerminal()
        #expect(throws: GPSError.unsupportedSpeed(path: terminal.devicePath, speed: 1234)) {
            try SerialPort(path: terminal.devicePath, speed: 1234)
        }
        #expect(openDescriptorCount(terminal.devicePath) == 0)
    }

    @Test("permission denied names the device's group")
    func permissionDenied() throws {
        let file = "/tmp/nmeastream-denied-\(getpid())"
        let fd = creat(file, 0o660)
        close(fd)
        defer { unlink(file) }
        let dialout = getgrnam("dialout")
        try #require(dialout != nil)
        #expect(chown(file, 0, dialout!.pointee.gr_gid) == 0)
        let error = GPSError.opening(file, errno: .permissionDenied)
        #expect(error == .permissionDenied(path: file, group: "dialout"))
        #expect(error.description.contains("group 'dialout'"))
    }

    @Test("the PPS wrappers report what the kernel says: no PPS device, a file that is not one, a line with no modem lines")
    func pulseWrappers() throws {
        #expect(throws: GPSError.self) { try PPSDevice(path: "/dev/pps-nmeastream-absent") }
        let notPPS = try PPSDevice(path: "/dev/null")
        #expect(throws: Errno.self) { try notPPS.nextPulse(timeout: 0.1) }
        let terminal = try PseudoTerminal()
        let port = try SerialPort(path: terminal.devicePath, speed: 9600)
        defer { port.close() }
        #expect(throws: Errno.self, "a pseudo-terminal has no DCD to wait on") { try port.waitForCarrierChange() }
    }
}
