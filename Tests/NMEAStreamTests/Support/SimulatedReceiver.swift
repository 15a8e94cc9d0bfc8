#if canImport(Glibc)
import Glibc
import Platform
#endif
import Foundation
@testable import NMEAStream
import TestSupport

/// A receiver behind a pseudo-terminal that talks at one speed only: while the device side
/// is set to another speed it sends noise, as a UART read at the wrong speed gives; once the
/// device side is at its speed, it sends its log once.
///
/// A pseudo-terminal has no real line speed, but the master side reads the device side's
/// settings (Linux hands the master's termios requests to the slave).
final class SimulatedReceiver: @unchecked Sendable {
    private let terminal: PseudoTerminal
    private let speed: Int?
    private let log: [UInt8]
    private let running = Protected(true)
    private let done = DispatchSemaphore(value: 0)

    /// Starts talking; `speed` `nil` never sends NMEA.
    init(terminal: PseudoTerminal, speed: Int?, log: [UInt8]) {
        self.terminal = terminal
        self.speed = speed
        self.log = log
        _ = fcntl(terminal.master, F_SETFL, fcntl(terminal.master, F_GETFL) | O_NONBLOCK)
        Thread.detachNewThread { [self] in run() }
    }

    /// The device side's speed now.
    static func deviceSpeed(_ terminal: PseudoTerminal) -> Int? {
        guard let settings = try? Syscall.terminalSettings(terminal.master) else { return nil }
        return Syscall.terminalSpeed(settings)
    }

    /// Stops talking; returns once the thread is done.
    func stop() {
        running.withLock { $0 = false }
        done.wait()
    }

    private func run() {
        var generator = SystemRandomNumberGenerator()
        var sent = false
        while running.withLock({ $0 }) {
            if !sent, let speed, Self.deviceSpeed(terminal) == speed {
                // Past the reader's flush of the input that follows a speed change.
                usleep(30_000)
                terminal.write(log)
                sent = true
            } else if !sent {
                let noise = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = noise.withUnsafeBytes { write(terminal.master, $0.baseAddress, $0.count) }
            }
            usleep(5_000)
        }
        done.signal()
    }
}
