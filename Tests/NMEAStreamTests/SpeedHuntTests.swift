#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
@testable import NMEAStream

@Suite("Speed hunting", .mayBlock)
struct SpeedHuntTests {
    @Test("automatic finds the receiver's speed by listening, says which, and loses none of the sentences that proved it")
    func findsSpeed() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: .automatic))
        reader.huntWindow = .milliseconds(300)
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        // Not the pseudo-terminal's first speed, nor the first of the hunt order.
        let receiver = SimulatedReceiver(terminal: terminal, speed: 4800, log: bytes)
        #expect(recorder.wait { recorder.fixes.count == expected.count })
        receiver.stop()
        #expect(recorder.speedsFound == [4800])
        #expect(recorder.fixes == expected)
        #expect(recorder.error == nil)
        // Nothing was written to the device: the master side has nothing to read.
        #expect(terminal.read(upTo: 1, seconds: 0.1).isEmpty)
        reader.stop()
        #expect(openDescriptorCount(terminal.devicePath) == 0)
    }

    @Test("no NMEA at any speed: the error says so with every speed tried, and the device is released")
    func noNMEA() throws {
        let terminal = try PseudoTerminal()
        let initial = SimulatedReceiver.deviceSpeed(terminal)
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: .automatic))
        reader.huntWindow = .milliseconds(150)
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        let receiver = SimulatedReceiver(terminal: terminal, speed: nil, log: [])
        #expect(recorder.waitForEnd(seconds: 20))
        receiver.stop()
        var order = initial.map { [$0] } ?? []
        order += SerialSpeed.huntOrder.filter { $0 != initial }
        #expect(recorder.error == .noNMEAFound(path: terminal.devicePath, speedsTried: order))
        #expect(recorder.error?.description.contains("no NMEA at any speed") == true)
        #expect(recorder.speedsFound.isEmpty)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        reader.stop()
    }

    @Test("a receiver left in UBX-only mode proves its speed by its frames, and what proved it is kept")
    func ubxOnly() throws {
        // NAV-EOE frames (class 0x01, id 0x61, iTOW) and nothing else.
        let frames = Array((0..<20).map { ubx(0x01, 0x61, [UInt8($0), 0, 0, 0]) }.joined())
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: .automatic))
        reader.huntWindow = .milliseconds(300)
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        let receiver = SimulatedReceiver(terminal: terminal, speed: 4800, log: frames)
        #expect(recorder.wait { recorder.speedsFound == [4800] })
        receiver.stop()
        #expect(recorder.error == nil)
        reader.stop()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
    }

    @Test("two checksum-valid UBX frames prove a speed as two sentences do; noise does not")
    func ubxProvesSpeed() {
        let whole = ubx(0x01, 0x61, [0x10, 0x27, 0x00, 0x00])
        var hunt = SpeedHunt(current: nil, preferred: nil)
        var noise = whole
        noise[noise.count - 1] ^= 0x5A
        #expect(!(noise + noise).withUnsafeBytes { hunt.take($0) })
        #expect(!whole.withUnsafeBytes { hunt.take($0) })
        #expect(whole.withUnsafeBytes { hunt.take($0) })
    }

    @Test("the order tried: the port's speed, the receiver's usual one, then the hunt order, each once")
    func order() {
        #expect(SpeedHunt(current: 9600, preferred: 115200).candidates
            == [9600, 115200, 4800, 38400, 57600, 19200, 230400, 460800])
        #expect(SpeedHunt(current: nil, preferred: nil).candidates == SerialSpeed.huntOrder)
    }
}
