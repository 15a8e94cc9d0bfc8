import Dispatch
import Platform
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
        let gate = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0), inGate = DispatchSemaphore(value: 0)
        let received = Protected<[Fix]>([])
        let watcher = gps.fixes.observe { event in
            switch event {
            case .next(let fix):
                if received.withLock({ $0.isEmpty }) {
                    inGate.signal()
                    gate.wait()
                }
                received.withLock { $0.append(fix) }
            case .completed, .failed: done.signal()
            }
        }
        let connection = gps.connect()
        defer {
            watcher.dispose()
            counting.dispose()
            connection.dispose()
        }
        // The subscriber holds its first fix (with the batch taken out with it); its buffer
        // fills again (`capacity` more), and then the reader is held.
        #expect(inGate.wait(timeout: .now() + 10) == .success)
        #expect(eventually { gps.isReaderHeld })
        #expect(sent.withLock { $0 } > capacity)
        let reader = try #require(gps.currentReader)
        // Its executor runs a job meanwhile: no thread of the reader's waits for the subscriber
        // (one that waited on a semaphore would run it only once the subscriber took).
        let ran = DispatchSemaphore(value: 0)
        reader.executor.schedule { ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success, "the reader's executor is free while its subscriber stalls")
        let stalled = sent.withLock { $0 }
        // A second job, once the first ran: whatever was under way before it has ended.
        reader.executor.schedule { ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(sent.withLock { $0 } == stalled, "paused: nothing more is sent while the subscriber stalls")
        #expect(stalled <= 2 * capacity + 2, "the reader sent \(stalled) fixes into a buffer of \(capacity) that stalled")
        #expect(stalled < 200 * expected.count)
        gate.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let all = received.withLock { $0 }
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
        let ran = Protected(false)
        reader.executor.schedule { ran.withLock { $0 = true } }
        #expect(eventually { ran.withLock { $0 } })
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
        let gate = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let received = Protected<[Fix]>([])
        let watcher = gps.fixes.observe { event in
            switch event {
            case .next(let fix):
                if received.withLock({ $0.isEmpty }) { gate.wait() }
                received.withLock { $0.append(fix) }
            case .completed, .failed: done.signal()
            }
        }
        let connection = gps.connect()
        defer {
            watcher.dispose()
            connection.dispose()
        }
        let reader = try #require(eventually { gps.currentReader != nil } ? gps.currentReader : nil)
        // The source delivers all its chunks meanwhile (it ignores the pause); the reader's
        // executor is free, and then everything arrives.
        let ran = DispatchSemaphore(value: 0)
        reader.executor.schedule { ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        gate.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let all = received.withLock { $0 }
        #expect(all.count == 100 * expected.count)
        #expect(all.map(\.time) == Array(repeating: expected.map(\.time), count: 100).flatMap { $0 })
    }
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
