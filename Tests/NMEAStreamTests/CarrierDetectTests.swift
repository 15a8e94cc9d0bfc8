#if canImport(Glibc)
import Glibc
import Platform
#endif
import CPlatform
import Dispatch
import Foundation
import Signals
import Testing
import TestSupport
@testable import NMEAStream

/// A receiver's pulse on its line's DCD. A pseudo-terminal has no modem lines, and no serial
/// port with a pulse is attached to the development machine: what is tested here is the
/// refusal of a line without DCD, and the signal that ends a wait that has no time-out.
@Suite("DCD pulses", .mayBlock)
struct CarrierDetectTests {
    @Test("a pseudo-terminal: refused, said as a line without modem lines; a missing device: refused with its error")
    func noModemLines() throws {
        let terminal = try PseudoTerminal()
        #expect(throws: CarrierDetectError.self) { try CarrierDetectPulses(path: terminal.devicePath) }
        do {
            _ = try CarrierDetectPulses(path: terminal.devicePath)
        } catch {
            #expect(error.hasNoModemLines && error.description.hasPrefix("\(terminal.devicePath) has no modem lines"))
        }
        do {
            _ = try CarrierDetectPulses(path: "/dev/nmeastream-missing")
        } catch {
            #expect(!error.hasNoModemLines && error.errno == .noSuchFile)
        }
    }

    @Test("the interrupt signal ends a blocking call (a read of an empty pipe), which fails with EINTR, and leaves the process running")
    func interruptEndsABlockingCall() throws {
        nmeastream_prepare_interrupt()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let thread = Protected<pthread_t?>(nil)
        let outcome = Protected<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        let reading = ends[0]
        Thread.detachNewThread {
            // As nmeastream_wait_dcd_change lets the signal through for its wait.
            var previous = sigset_t()
            nmeastream_unblock_interrupt(&previous)
            thread.withLock { $0 = pthread_self() }
            var byte: UInt8 = 0
            let count = read(reading, &byte, 1)
            let error = errno
            nmeastream_restore_signal_mask(&previous)
            outcome.withLock { $0 = count < 0 ? error : 0 }
            done.signal()
        }
        // Until the thread is in its read; then signalled, as CarrierDetectPulses.stop() does,
        // again until it has left.
        try #require(eventually { thread.withLock { $0 } != nil })
        usleep(50_000)
        let target = try #require(thread.withLock { $0 })
        var ended = false
        for _ in 0..<1000 where !ended {
            _ = nmeastream_interrupt_thread(target)
            ended = done.wait(timeout: .now() + .milliseconds(5)) == .success
        }
        #expect(ended)
        #expect(outcome.withLock { $0 } == EINTR)
    }
}
