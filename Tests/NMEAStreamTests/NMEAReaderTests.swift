#if canImport(Glibc)
import Glibc
import Platform
#endif
import Dispatch
import Foundation
import Testing
import TestSupport
@testable import NMEAStream

@Suite("Reader", .mayBlock)
struct NMEAReaderTests {
    @Test("a serial device: fixes arrive as the receiver writes them, in any chunk sizes; stop closes it",
          arguments: ["ublox-multi.nmea", "sirf-cycle.nmea"])
    func serial(log: String) throws {
        let bytes = try Fixtures.bytes(log)
        let expected = Fixtures.expectedFixes(bytes)
        let (terminal, reader, recorder) = try startReadingPseudoTerminal()
        var generator = SystemRandomNumberGenerator()
        var offset = 0
        while offset < bytes.count {
            let size = Int.random(in: 1...200, using: &generator)
            terminal.write(bytes[offset..<min(bytes.count, offset + size)])
            offset += size
        }
        // The last epoch completes only at the end of the stream: all but it arrive live.
        #expect(recorder.wait { recorder.fixes.count >= expected.count - 1 })
        reader.stop()
        #expect(openDescriptorCount(terminal.devicePath) == 0)
        #expect(recorder.fixes == Array(expected.prefix(recorder.fixes.count)))
        #expect(recorder.error == nil)
    }

    @Test("a receiver that sends its VTG first, with a pause between bursts: each fix has its own cycle's speed and course, and comes at its burst's end")
    func vtgFirstThroughDevice() throws {
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 115_200))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        for second in 0..<6 {
            let burst = SyntheticEpochs.sentence(String(format: "GPVTG,%05.1f,T,,M,%05.1f,N,,K,A", Double(10 * second), Double(1 + second)))
                + SyntheticEpochs.sentence(String(format: "GPGGA,1200%02d.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,", second))
                + SyntheticEpochs.sentence("GPGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.9,1.2")
            terminal.write(Array(burst.utf8))
            // From the second burst on, its epoch is out before the next burst starts (the first
            // waits for the next cycle's time to learn where a cycle ends).
            if second > 0 {
                #expect(recorder.wait { recorder.fixes.count == second + 1 }, "burst \(second): \(recorder.fixes.count) fixes")
            }
            usleep(80_000)
        }
        #expect(recorder.quietCount >= 5)
        let fixes = recorder.fixes
        #expect(fixes.map(\.track) == (0..<6).map { Double(10 * $0) })
        #expect(fixes.map { $0.timeOfDay?.second } == Array(0..<6))
    }

    @Test("every gpsd regression log through a pseudo-terminal, in random chunks at a paced rate, makes the fixes a decoder makes of it in one go",
          .enabled(if: Corpus.isAvailable, "../shared/corpus is absent: the corpus is not replayed through a device"))
    func corpusThroughDevice() throws {
        var generator = SystemRandomNumberGenerator()
        for log in try Corpus.logs(in: "gpsd-nmea") {
            let bytes = Array(try Data(contentsOf: log))
            let expected = Fixtures.expectedFixes(bytes)
            let sentences = Fixtures.sentenceCount(bytes)
            let (terminal, reader, recorder) = try startReadingPseudoTerminal()
            var offset = 0, chunks = 0
            while offset < bytes.count {
                let size = Int.random(in: 1...512, using: &generator)
                terminal.write(bytes[offset..<min(bytes.count, offset + size)])
                offset += size
                chunks += 1
                // A receiver's pace, roughly: a pause every few chunks.
                if chunks % 8 == 0 { usleep(200) }
            }
            // Wait for the reader to take in every sentence (a hang-up drops unread input), then
            // unplug: the epoch in progress completes and the device is reported lost.
            #expect(recorder.wait { recorder.sentences == sentences }, "\(log.lastPathComponent)")
            terminal.closeMaster()
            #expect(recorder.waitForEnd(), "\(log.lastPathComponent)")
            // A pause of the writer is a quiet line to the reader, which places a sentence
            // without a time after it as a receiver's pause would: what the reader makes is what
            // a decoder makes of the same reads and quiets, and with none, of the log in one go.
            #expect(bytes.starts(with: recorder.bytesRead), "\(log.lastPathComponent)")
            #expect(recorder.fixes == (recorder.quietCount == 0 ? expected : recorder.fixesFromTape), "\(log.lastPathComponent)")
            reader.stop()
            #expect(openDescriptorCount(terminal.devicePath) == 0)
        }
    }

    @Test("closing the other end mid-stream: the device is lost, said once, and released")
    func deviceLost() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let (terminal, reader, recorder) = try startReadingPseudoTerminal()
        terminal.write(bytes.prefix(bytes.count / 2))
        #expect(recorder.wait { recorder.sentences > 0 })
        terminal.closeMaster()
        #expect(recorder.waitForEnd())
        // A hung-up pseudo-terminal reads as an end of file or EIO, as an unplugged USB
        // serial device does.
        guard case .deviceLost(let path, let code) = recorder.error else {
            Issue.record("expected a lost device, got \(String(describing: recorder.error))")
            return
        }
        #expect(path == terminal.devicePath && (code == nil || code == .ioError))
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        reader.stop()
    }

    @Test("stop(then:) returns without waiting; its closure runs once the device is closed, and no delegate call follows it; a reader never started calls it at once")
    func stopWithoutWaiting() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let (terminal, reader, recorder) = try startReadingPseudoTerminal()
        terminal.write(bytes.prefix(bytes.count / 2))
        #expect(recorder.wait { recorder.sentences > 0 })
        let closedWhenReleased = Protected<Int?>(nil)
        let released = DispatchSemaphore(value: 0)
        let path = terminal.devicePath
        reader.stop {
            closedWhenReleased.withLock { $0 = openDescriptorCount(path) }
            released.signal()
        }
        #expect(released.wait(timeout: .now() + 10) == .success)
        #expect(closedWhenReleased.withLock { $0 } == 0)
        let sentences = recorder.sentences
        terminal.write(bytes.suffix(bytes.count / 2))
        usleep(100_000)
        #expect(recorder.sentences == sentences, "no delegate call after the release")

        let idle = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600))
        let idleReleased = DispatchSemaphore(value: 0)
        idle.stop { idleReleased.signal() }
        #expect(idleReleased.wait(timeout: .now() + 10) == .success)
    }

    @Test("a device that cannot be opened fails with its error, and nothing stays open")
    func openFailure() throws {
        let reader = NMEAReader(source: .serial(path: "/dev/ttyNMEASTREAM-none", speed: 9600))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(recorder.waitForEnd())
        #expect(recorder.error == .noSuchDevice(path: "/dev/ttyNMEASTREAM-none"))
        reader.stop()
    }

    @Test("a log file: every fix, then the end; bytes in memory give the same")
    func log() throws {
        // A copy of its own: other tests read the fixture at the same time, and the check at
        // the end counts this process's descriptors open on the path.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-log-\(UUID().uuidString).nmea")
        try Data(try Fixtures.bytes("ublox-multi.nmea")).write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let path = copy.path
        let expected = Fixtures.expectedFixes(try Fixtures.bytes("ublox-multi.nmea"))
        for source in [GPSSource.log(path: path), .bytes(try Fixtures.bytes("ublox-multi.nmea"))] {
            let reader = NMEAReader(source: source)
            let recorder = ReaderRecorder()
            reader.delegate = recorder
            reader.start()
            #expect(recorder.waitForEnd())
            #expect(recorder.finished)
            #expect(recorder.fixes == expected)
            #expect(recorder.views > 0)
            // Each read's end is told, after its sentences; the last one after all of them.
            #expect(!recorder.chunkEnds.isEmpty && recorder.chunkEnds == recorder.chunkEnds.sorted())
            #expect(recorder.chunkEnds.last == recorder.sentences)
            reader.stop()
        }
        #expect(openDescriptorCount(path) == 0)
    }

    @Test("several delegates hear the same events; one may remove itself during a call")
    func delegates() throws {
        final class Leaver: NMEAReaderDelegate, @unchecked Sendable {
            var fixes = 0
            func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
                fixes += 1
                reader.removeDelegate(self)
            }
        }
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let reader = NMEAReader(source: .bytes(bytes))
        let first = ReaderRecorder(), second = ReaderRecorder(), leaver = Leaver()
        reader.delegate = first
        reader.addDelegate(second)
        reader.addDelegate(leaver)
        reader.start()
        #expect(first.waitForEnd() && second.waitForEnd())
        #expect(first.fixes.count == Fixtures.expectedFixes(bytes).count)
        #expect(second.fixes == first.fixes)
        #expect(leaver.fixes == 1)
    }
}

/// The README's reader example, with a log and a recorder in place of the device and `exit`.
@Suite("README reader example", .mayBlock)
struct ReadmeReaderExampleTests {
    @Test("the delegate example's calls: fixes, then the end")
    func example() throws {
        final class Tracker: NMEAReaderDelegate, @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            var lines: [String] = []
            var failure: GPSError?
            func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
                lines.append("\(fix.timeOfDay?.description ?? "-") \(fix.latitude ?? .nan) \(fix.longitude ?? .nan) \(fix.mode)")
            }
            func reader(_ reader: NMEAReader, didFailWith error: GPSError) {
                failure = error
                done.signal()
            }
            func readerDidFinish(_ reader: NMEAReader) { done.signal() }
        }
        let tracker = Tracker()
        let path = Fixtures.directory.appendingPathComponent("sirf-cycle.nmea").path
        let reader = NMEAReader(source: .log(path: path), queue: DispatchQueue(label: "example"))
        reader.delegate = tracker
        reader.start()
        #expect(tracker.done.wait(timeout: .now() + 10) == .success)
        #expect(tracker.failure == nil)
        #expect(tracker.lines.count == Fixtures.expectedFixes(try Fixtures.bytes("sirf-cycle.nmea")).count)
    }
}

/// A reader of a new pseudo-terminal's device side, started, with a recorder as its
/// delegate; returns once the device is open.
func startReadingPseudoTerminal() throws -> (PseudoTerminal, NMEAReader, ReaderRecorder) {
    let terminal = try PseudoTerminal()
    let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600))
    let recorder = ReaderRecorder()
    reader.delegate = recorder
    reader.start()
    #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
    #expect(terminal.waitUntilConfigured())
    return (terminal, reader, recorder)
}
