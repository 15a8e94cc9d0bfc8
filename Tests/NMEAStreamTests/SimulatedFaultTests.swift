import Testing
import NMEAStream
import TestSupport

@Suite("Simulated faults and bounded lines", .mayBlock)
struct SimulatedFaultTests {
    @Test("each command parses; numbers outside their range are refused, never applied")
    func parse() throws {
        #expect(try SimulatedFault.parse("3d").get() == .mode(.threeD))
        #expect(try SimulatedFault.parse("no-fix").get() == .mode(.noFix))
        #expect(try SimulatedFault.parse("shift  -250.5").get() == .shift(metres: -250.5))
        #expect(try SimulatedFault.parse("time-shift\t-3600").get() == .timeShift(seconds: -3600))
        #expect(try SimulatedFault.parse("signals jammed").get() == .signals(.jammed))
        #expect(try SimulatedFault.parse("normal").get() == .normal)
        for line in ["shift 1e308", "shift inf", "shift nan", "shift 1000001", "time-shift 9223372036854775807",
                     "time-shift -9223372036854775808", "time-shift 1.5", "time-shift 315576001"] {
            guard case .failure(.outOfRange) = SimulatedFault.parse(line) else {
                Issue.record("\(line) was not refused for its range")
                continue
            }
        }
        for line in ["", "3d now", "shift", "signals loud", "SHIFT 5", "\u{1B}[2J"] {
            #expect(SimulatedFault.parse(line) == .failure(.notACommand), "\(line)")
        }
    }

    @Test("lines are split in bounded memory: a long line keeps its first bytes and is marked cut, CR LF and LF both end a line, the end of the stream ends the last")
    func splitter() {
        var splitter = BoundedLineSplitter(maximumLength: 8)
        #expect(splitter.take(Array("3d\r\nshift 5\n".utf8)) == [.init(bytes: Array("3d".utf8), isCut: false),
                                                                 .init(bytes: Array("shift 5".utf8), isCut: false)])
        // Ten million bytes without an end: nothing grows past the bound.
        for _ in 0..<1000 { #expect(splitter.take([UInt8](repeating: 0x41, count: 10_000)).isEmpty) }
        #expect(splitter.take(Array("\nno-fix".utf8)) == [.init(bytes: Array("AAAAAAAA".utf8), isCut: true)])
        #expect(splitter.finish() == .init(bytes: Array("no-fix".utf8), isCut: false))
        #expect(splitter.finish() == nil)
    }
}
