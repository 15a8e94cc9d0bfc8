import Testing
@testable import NMEAStream
import TestSupport

@Suite("Quiet line detector", .mayBlock)
struct QuietLineDetectorTests {
    private let millisecond: UInt64 = 1_000_000

    @Test("a pause of the line counts; the first read, a short wait, or a wait the read's own bytes account for does not")
    func pauses() {
        var line = QuietLine(bitsPerSecond: 9600)
        let quiet1 = line.read(byteCount: 10, at: 1_000 * millisecond)
        #expect(!quiet1, "no read before it")
        // 10 bytes at 9600 bit/s take 10.4 ms: 100 ms after the last read, 89.6 ms were quiet.
        let quiet2 = line.read(byteCount: 10, at: 1_100 * millisecond)
        #expect(quiet2)
        let quiet3 = line.read(byteCount: 10, at: 1_120 * millisecond)
        #expect(!quiet3, "20 ms, less the bytes' 10.4 ms")
        // A read delayed 100 ms that brings 100 bytes (104 ms of them): the line was busy.
        let quiet4 = line.read(byteCount: 100, at: 1_220 * millisecond)
        #expect(!quiet4)
        let quiet5 = line.read(byteCount: 1, at: 1_260 * millisecond)
        #expect(quiet5, "40 ms less 1 ms")
        // The clock does not go back, but a read at the same instant is no pause.
        let quiet6 = line.read(byteCount: 1, at: 1_260 * millisecond)
        #expect(!quiet6)
    }

    @Test("at an unknown speed (a pseudo-terminal) bytes take no time; a reset forgets the last read")
    func unknownSpeed() {
        var line = QuietLine()
        _ = line.read(byteCount: 500, at: 0)
        let quiet7 = line.read(byteCount: 500, at: QuietLine.minimumPause)
        #expect(quiet7)
        let quiet8 = line.read(byteCount: 500, at: QuietLine.minimumPause * 2 - 1)
        #expect(!quiet8)
        line.reset()
        let quiet9 = line.read(byteCount: 1, at: QuietLine.minimumPause * 10)
        #expect(!quiet9)
        line.bitsPerSecond = 115_200
        // 30 ms, less 100 bytes at 115,200 bit/s (8.7 ms): 21.3 ms, under the minimum.
        let quiet10 = line.read(byteCount: 100, at: QuietLine.minimumPause * 10 + 30 * millisecond)
        #expect(!quiet10)
    }
}
