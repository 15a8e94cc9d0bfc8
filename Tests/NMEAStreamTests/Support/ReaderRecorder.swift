import Dispatch
import Foundation
import TestSupport
@testable import NMEAStream

/// A delegate that records what a reader tells it, and signals when the reader ends.
final class ReaderRecorder: NMEAReaderDelegate, @unchecked Sendable {
    private let lock = Lock()
    private var storedFixes: [Fix] = []
    private var storedViews = 0
    private var storedSentences = 0
    private var storedRejects = 0
    private var storedError: GPSError?
    private var storedFinished = false
    private var storedSpeeds: [Int] = []
    /// The sentence count at each chunk's end.
    private var storedChunkEnds: [Int] = []
    private let ended = DispatchSemaphore(value: 0)

    var fixes: [Fix] { lock.withLock { storedFixes } }
    var views: Int { lock.withLock { storedViews } }
    var sentences: Int { lock.withLock { storedSentences } }
    var error: GPSError? { lock.withLock { storedError } }
    var finished: Bool { lock.withLock { storedFinished } }
    var speedsFound: [Int] { lock.withLock { storedSpeeds } }
    var chunkEnds: [Int] { lock.withLock { storedChunkEnds } }

    func readerDidFinishChunk(_ reader: NMEAReader) { lock.withLock { storedChunkEnds.append(storedSentences) } }

    func reader(_ reader: NMEAReader, didFindSpeed bitsPerSecond: Int) { lock.withLock { storedSpeeds.append(bitsPerSecond) } }

    func reader(_ reader: NMEAReader, didUpdate fix: Fix) { lock.withLock { storedFixes.append(fix) } }
    func reader(_ reader: NMEAReader, didUpdate satellites: SatelliteView) { lock.withLock { storedViews += 1 } }
    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) { lock.withLock { storedSentences += 1 } }
    func reader(_ reader: NMEAReader, didReject input: RejectedInput) { lock.withLock { storedRejects += 1 } }
    func reader(_ reader: NMEAReader, didFailWith error: GPSError) {
        lock.withLock { storedError = error }
        ended.signal()
    }
    func readerDidFinish(_ reader: NMEAReader) {
        lock.withLock { storedFinished = true }
        ended.signal()
    }

    /// Waits until the reader failed or finished (at most `seconds`); `false` on time-out.
    func waitForEnd(seconds: Double = 10) -> Bool { ended.wait(timeout: .now() + seconds) == .success }

    /// Waits until `condition` holds (checked at each delegate call's pace, at most `seconds`).
    func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        eventually(seconds: seconds, condition)
    }
}

/// The project's own receiver logs.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("NMEATests/Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// How many checksum-valid sentences `bytes` hold.
    static func sentenceCount(_ bytes: [UInt8]) -> Int {
        let decoder = NMEADecoder()
        decoder.feed(bytes) { _ in }
        decoder.finish { _ in }
        return decoder.statistics.sentenceCount
    }

    /// What a decoder makes of `bytes` in one go: the reference a reader must match.
    static func expectedFixes(_ bytes: [UInt8]) -> [Fix] {
        let decoder = NMEADecoder()
        var fixes: [Fix] = []
        let collect: (NMEADecoder.Event) -> Void = { if let fix = $0.fix { fixes.append(fix) } }
        decoder.feed(bytes, collect)
        decoder.finish(collect)
        return fixes
    }
}
