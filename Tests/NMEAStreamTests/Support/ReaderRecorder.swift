import Dispatch
import Foundation
import TestSupport
@testable import NMEAStream
import Platform

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
    /// Each read's bytes, and the quiets between them, in order.
    private var storedTape: [TapeEntry] = []
    private var storedConnections: [String] = []
    private var storedInterruptions: [NetworkInterruption] = []
    private let ended = DispatchSemaphore(value: 0)
    private let changes = ChangeNotifier()

    var fixes: [Fix] { lock.withLock { storedFixes } }
    /// The endpoints a network source connected to, in order.
    var connections: [String] { lock.withLock { storedConnections } }
    /// What interrupted a network source, in order.
    var interruptions: [NetworkInterruption] { lock.withLock { storedInterruptions } }
    var views: Int { lock.withLock { storedViews } }
    var sentences: Int { lock.withLock { storedSentences } }
    var error: GPSError? { lock.withLock { storedError } }
    var finished: Bool { lock.withLock { storedFinished } }
    var speedsFound: [Int] { lock.withLock { storedSpeeds } }
    var chunkEnds: [Int] { lock.withLock { storedChunkEnds } }

    /// What the reader read, as it read it: a read's bytes, or a quiet line before the next.
    enum TapeEntry {
        case read([UInt8])
        case quiet
    }

    /// Every byte read, in order.
    var bytesRead: [UInt8] {
        lock.withLock {
            storedTape.flatMap { entry -> [UInt8] in
                if case .read(let bytes) = entry { bytes } else { [] }
            }
        }
    }

    /// How many quiets the reader saw.
    var quietCount: Int { lock.withLock { storedTape.count { if case .quiet = $0 { true } else { false } } } }

    /// The fixes a decoder makes of the same reads and quiets, fed as the reader fed them.
    var fixesFromTape: [Fix] {
        let tape = lock.withLock { storedTape }
        let decoder = NMEADecoder()
        var fixes: [Fix] = []
        let collect: (NMEADecoder.Event) -> Void = { if let fix = $0.fix { fixes.append(fix) } }
        for entry in tape {
            switch entry {
            case .read(let bytes): decoder.feed(bytes, collect)
            case .quiet: decoder.noteQuiet(collect)
            }
        }
        decoder.finish(collect)
        return fixes
    }

    func reader(_ reader: NMEAReader, didRead bytes: UnsafeRawBufferPointer) {
        record { storedTape.append(.read(Array(bytes))) }
    }

    func readerDidSeeQuietLine(_ reader: NMEAReader) { record { storedTape.append(.quiet) } }

    func readerDidFinishChunk(_ reader: NMEAReader) { record { storedChunkEnds.append(storedSentences) } }

    func reader(_ reader: NMEAReader, didFindSpeed bitsPerSecond: Int) { record { storedSpeeds.append(bitsPerSecond) } }

    func reader(_ reader: NMEAReader, didUpdate fix: Fix) { record { storedFixes.append(fix) } }
    func reader(_ reader: NMEAReader, didUpdate satellites: SatelliteView) { record { storedViews += 1 } }
    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) { record { storedSentences += 1 } }
    func reader(_ reader: NMEAReader, didReject input: RejectedInput) { record { storedRejects += 1 } }
    func reader(_ reader: NMEAReader, didConnect endpoint: String) { record { storedConnections.append(endpoint) } }
    func reader(_ reader: NMEAReader, didLoseConnection interruption: NetworkInterruption) {
        record { storedInterruptions.append(interruption) }
    }
    func reader(_ reader: NMEAReader, didFailWith error: GPSError) {
        record { storedError = error }
        ended.signal()
    }
    func readerDidFinish(_ reader: NMEAReader) {
        record { storedFinished = true }
        ended.signal()
    }

    /// Waits until the reader failed or finished (at most `seconds`); `false` on time-out.
    func waitForEnd(seconds: Double = 10) -> Bool { ended.wait(timeout: .now() + seconds) == .success }

    /// Waits until `condition` holds, asked again after each delegate call, at most `seconds`.
    func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        changes.wait(seconds: seconds, until: condition)
    }

    /// Records, then wakes the waits.
    private func record(_ change: () -> Void) {
        lock.withLock(change)
        changes.changed()
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
