import Dispatch
import Platform
import Signals
import Testing
import TestSupport
@testable import NMEAStream

/// A recorded log's reader, held back by a full subscriber: paused, not blocked.
@Suite("A log's reader paused by a full subscriber", .mayBlock)
struct PausedReaderTests {
    @Test("a stalled lossless subscriber pauses the reader, whose executor stays free; nothing is lost, and it goes on once there is room")
    func stalledSubscriberPausesReader() throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let long = Array((0..<200).map { _ in bytes }.joined())
        let capacity = 16
        let gps = GPSMonitor(source: .bytes(long), delivery: .lossless(capacity: capacity), opening: .onConnect)
        // What the reader has sent, counted in its own call, before any buffer.
        let sent = Protected(0)
        let counting = gps.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false)
            .observe(next: { event in if event.fix != nil { sent.withLock { $0 += 1 } } })
        let subscriber = GatedSubscriber(gps)
        let connection = gps.connect()
        defer {
            subscriber.dispose()
            counting.dispose()
            connection.dispose()
        }
        // The subscriber holds its first fix (with the batch taken out with it); its buffer
        // fills again (`capacity` more), and then the reader is held.
        #expect(subscriber.waitUntilHolding())
        #expect(eventually { gps.isReaderHeld })
        #expect(sent.withLock { $0 } > capacity)
        let reader = try #require(gps.currentReader)
        // Its executor runs a job meanwhile: no thread of the reader's waits for the subscriber
        // (one that waited on a semaphore would run it only once the subscriber took).
        #expect(Self.runsAJob(reader), "the reader's executor is free while its subscriber stalls")
        let stalled = sent.withLock { $0 }
        // A second job, once the first ran: whatever was under way before it has ended.
        #expect(Self.runsAJob(reader))
        #expect(sent.withLock { $0 } == stalled, "paused: nothing more is sent while the subscriber stalls")
        #expect(stalled <= 2 * capacity + 2, "the reader sent \(stalled) fixes into a buffer of \(capacity) that stalled")
        #expect(stalled < 200 * expected.count)
        let all = try #require(subscriber.openAndWaitForEnd())
        #expect(all.count == 200 * expected.count)
        #expect(all.prefix(expected.count).map(\.time) == expected.map(\.time))
        #expect(all.suffix(expected.count).map(\.time) == expected.map(\.time))
    }

    @Test("values over a log: a consumer that stops and goes on gets every fix, in order, with the reader paused meanwhile, not blocked")
    func valuesPauseReader() async throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let long = Array((0..<100).map { _ in bytes }.joined())
        let gps = GPSMonitor(source: .bytes(long), opening: .onConnect)
        var iterator = gps.fixes.values(bufferingPolicy: .lossless(capacity: 8)).makeAsyncIterator()
        let connection = gps.connect()
        defer { connection.dispose() }
        let first = try await iterator.next()
        #expect(first?.time == expected.first?.time)
        let reader = try #require(gps.currentReader)
        // The consumer is away (this task does not take); the reader's executor still runs.
        #expect(Self.runsAJob(reader))
        var times = [first?.time]
        while let fix = try await iterator.next() { times.append(fix.time) }
        #expect(times.count == 100 * expected.count)
        #expect(Array(times.suffix(expected.count)) == expected.map(\.time))
    }

    @Test("a recorded kind of source that cannot pause: while the reader is held its chunks wait in the reader, and every fix still comes, in order")
    func sourceThatCannotPause() throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let gps = GPSMonitor(source: .kind(Unpausable(chunk: bytes, count: 100)), delivery: .lossless(capacity: 8),
                             opening: .onConnect)
        let subscriber = GatedSubscriber(gps)
        let connection = gps.connect()
        defer {
            subscriber.dispose()
            connection.dispose()
        }
        #expect(subscriber.waitUntilHolding())
        let reader = try #require(gps.currentReader)
        // The source delivers all its chunks meanwhile (it ignores the pause); the reader's
        // executor is free, and then everything arrives.
        #expect(Self.runsAJob(reader))
        let all = try #require(subscriber.openAndWaitForEnd())
        #expect(all.count == 100 * expected.count)
        #expect(all.map(\.time) == Array(repeating: expected.map(\.time), count: 100).flatMap { $0 })
    }
}

extension PausedReaderTests {
    /// Whether the reader's executor runs a job given to it now (within 10 s).
    static func runsAJob(_ reader: NMEAReader) -> Bool {
        let ran = DispatchSemaphore(value: 0)
        reader.executor.schedule { ran.signal() }
        return ran.wait(timeout: .now() + 10) == .success
    }
}

/// A subscriber of a monitor's fixes that stalls in its first fix until it is let go, then
/// takes every fix to the end.
private final class GatedSubscriber: Sendable {
    private let gate = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let received = Protected<[Fix]>([])
    private let subscription = SerialDisposable()

    init(_ gps: GPSMonitor) {
        subscription.inner = gps.fixes.observe { [gate, holding, done, received] event in
            switch event {
            case .next(let fix):
                if received.withLock({ $0.isEmpty }) {
                    holding.signal()
                    gate.wait()
                }
                received.withLock { $0.append(fix) }
            case .completed, .failed: done.signal()
            }
        }
    }

    /// Whether it came to its first fix and holds it (within 10 s).
    func waitUntilHolding() -> Bool { holding.wait(timeout: .now() + 10) == .success }

    /// Lets it go on; every fix it took, once the stream ended (`nil` if it did not within 60 s).
    func openAndWaitForEnd() -> [Fix]? {
        gate.signal()
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return received.withLock { $0 }
    }

    func dispose() { subscription.dispose() }
}

/// A recorded source whose bytes come in `count` chunks, one turn each, and that has no
/// `pause()`: a custom kind written before pausing existed.
private struct Unpausable: GPSSourceKind {
    let chunk: [UInt8]
    let count: Int
    var isLive: Bool { false }
    var description: String { "unpausable" }
    func makeByteSource() -> any ByteSource { Source(chunk: chunk, count: count) }

    final class Source: ByteSource, @unchecked Sendable {
        let chunk: [UInt8]
        let count: Int
        let released = DispatchGroup()
        private var sent = 0
        private var stopped = false
        init(chunk: [UInt8], count: Int) {
            self.chunk = chunk
            self.count = count
        }
        func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                   end: @escaping @Sendable (GPSError?) -> Void) {
            guard !stopped else { return }
            guard sent < count else { return end(nil) }
            sent += 1
            chunk.withUnsafeBytes { deliver($0) }
            executor.schedule { self.start(on: executor, deliver: deliver, end: end) }
        }
        func stop() { stopped = true }
    }
}
