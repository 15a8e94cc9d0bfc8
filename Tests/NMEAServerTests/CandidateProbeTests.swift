import Foundation
import NIOPosix
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream
import Platform

/// Listening to a USB-serial bridge to tell whether a receiver sits behind it, on a
/// pseudo-terminal (the speed hunt behind a mocked udev is in the hotplug tests).
@Suite("candidate ports listened to", .mayBlock)
struct CandidateProbeTests {
    /// The probes' timers, on a loop of their own that lives as long as the tests.
    static let timers = ServerLoops(on: MultiThreadedEventLoopGroup.singleton.next())

    /// Runs a probe of `terminal` at 9600 bit/s while `send` writes to it; what it decided.
    func probe(_ terminal: PseudoTerminal, patience: Int = 2, send: @escaping @Sendable (PseudoTerminal) -> Void) -> CandidateProbe.Outcome? {
        let outcome = Protected<CandidateProbe.Outcome?>(nil)
        let path = terminal.devicePath
        let probe = CandidateProbe(path: path, speed: 9600, patience: patience, timers: Self.timers) { decided in
            // The port is closed before the decision is told.
            #expect(openDescriptorCount(path) == 0)
            outcome.withLock { $0 = decided }
        }
        probe.start()
        _ = terminal.waitUntilConfigured()
        nonisolated(unsafe) let terminal = terminal
        send(terminal)
        _ = eventually(seconds: Double(patience) + 10) { outcome.withLock { $0 } != nil }
        return outcome.withLock { $0 }
    }

    @Test("a receiver sending NMEA: a receiver, at the speed it was read at; the port closed")
    func nmea() throws {
        let terminal = try PseudoTerminal()
        let outcome = probe(terminal) { $0.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1)) }
        #expect(outcome == .receiver(bitsPerSecond: 9600))
    }

    @Test("a receiver in UBX-only mode: a receiver too")
    func ubx() throws {
        let terminal = try PseudoTerminal()
        // Two empty NAV-PVT polls' worth of frames: class 1, id 7, no payload, valid checksums.
        let frame: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x00, 0x08, 0x19]
        let outcome = probe(terminal) { $0.write(frame + frame) }
        #expect(outcome == .receiver(bitsPerSecond: 9600))
    }

    @Test("an Arduino printing text, and a corrupt sentence: not a receiver, said why")
    func text() throws {
        let terminal = try PseudoTerminal()
        let outcome = probe(terminal) { terminal in
            terminal.write(Array("Hello from the sensor: t=23.5 h=41\r\n$GPGGA,120000.00,5207.4074,N,,,1,08,0.9,,M,,M,,*00\r\n".utf8))
        }
        #expect(outcome == .notAReceiver("no NMEA or UBX within 2 s at 9600 bit/s"))
    }

    @Test("one valid sentence among noise is not enough")
    func proof() throws {
        let terminal = try PseudoTerminal()
        let one = probe(terminal) { $0.write(Array("noise\r\n".utf8) + Array(SyntheticEpochs.sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1").utf8)) }
        #expect(one == .notAReceiver("no NMEA or UBX within 2 s at 9600 bit/s"))
    }

    @Test("a port that cannot be opened: not a receiver, with the system's reason; cancelled: never told, the port closed")
    func failures() throws {
        let missing = Protected<CandidateProbe.Outcome?>(nil)
        let gone = CandidateProbe(path: "/dev/nmeastream-no-such-port", speed: 9600, timers: Self.timers) { decided in missing.withLock { $0 = decided } }
        gone.start()
        #expect(eventually { missing.withLock { $0 } != nil })
        #expect(missing.withLock { $0 } == .notAReceiver("no such device"))
        let terminal = try PseudoTerminal()
        let told = Protected(false)
        let cancelled = CandidateProbe(path: terminal.devicePath, speed: 9600, patience: 1, timers: Self.timers) { _ in told.withLock { $0 = true } }
        cancelled.start()
        #expect(terminal.waitUntilConfigured())
        cancelled.cancel()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        usleep(1_500_000)
        #expect(!told.withLock { $0 })
    }
}
