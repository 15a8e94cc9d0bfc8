import Foundation
import Testing
@testable import Signals
import TestSupport
import Platform

@Suite("Async bridges", .mayBlock)
struct BridgeTests {
    @Test("values: every value in order, then the end")
    func values() async {
        var received: [Int] = []
        for await value in Signal<Int, Never>.from(1...5).values { received.append(value) }
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test("values of a failing signal throws its failure")
    func throwingValues() async {
        let signal = Signal<Int, TestError>.just(1).merge(with: .failed(TestError()))
        var received: [Int] = []
        await #expect(throws: TestError.self) {
            for try await value in signal.values { received.append(value) }
        }
        #expect(received == [1])
    }

    @Test("cancelling the consuming task disposes the subscription")
    func cancellation() async {
        let probe = UpstreamProbe()
        let subject = Subject<Int, Never>()
        let signal = Signal<Int, Never> { observer in
            probe.subscribed()
            let inner = subject.signal.observe(observer)
            return BlockDisposable { inner.dispose(); probe.disposed() }
        }
        let consumer = Task {
            var count = 0
            for await _ in signal.values { count += 1 }
            return count
        }
        while probe.subscriptions == 0 { await Task.yield() }
        subject.next(1)
        consumer.cancel()
        _ = await consumer.value
        #expect(probe.open == 0)
        #expect(subject.observerCount == 0)
    }

    @Test("a signal from an AsyncSequence sends its elements, completes, and stops on dispose")
    func fromAsyncSequence() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = Recorder<Int, Never>()
        let subscription = recorder.observe(Signal(stream))
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        while !recorder.isCompleted { await Task.yield() }
        #expect(recorder.values == [1, 2])
        subscription.dispose()

        let (endless, feed) = AsyncStream<Int>.makeStream()
        let stopped = Recorder<Int, Never>()
        let terminated = Protected(false)
        feed.onTermination = { _ in terminated.withLock { $0 = true } }
        let endlessSubscription = stopped.observe(Signal(endless))
        endlessSubscription.dispose()
        while !terminated.withLock({ $0 }) { await Task.yield() }
        feed.yield(3)
        #expect(stopped.events.isEmpty)
    }

    @Test("a signal from a throwing AsyncSequence fails with its error")
    func fromThrowingSequence() async {
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let recorder = Recorder<Int, any Error>()
        _ = recorder.observe(Signal(stream))
        continuation.yield(1)
        continuation.finish(throwing: TestError())
        while recorder.terminalCount == 0 { await Task.yield() }
        #expect(recorder.values == [1])
        #expect(!recorder.isCompleted)
    }
}

/// `values` holds a bounded number of values: a sender that may wait does, one that may not
/// (the subscribing call) is never made to, and `.newest` pushes out and counts.
@Suite("Async bridges: bounds", .mayBlock)
struct BoundedValuesTests {
    /// A signal that sends `1...count` from a thread of its own, counting what it sent, and
    /// signalling `finished` when it has sent them all.
    static func sender(_ count: Int, sent: Watched<Int>, finished: DispatchSemaphore? = nil) -> Signal<Int, Never> {
        Signal { observer in
            let thread = Thread {
                for value in 1...count {
                    observer.next(value)
                    sent.change { $0 += 1 }
                }
                observer.completed()
                finished?.signal()
            }
            thread.start()
            return nil
        }
    }

    @Test("lossless: a sender on a thread of its own waits while `capacity` values wait, and every value arrives in order")
    func losslessWaits() async throws {
        let sent = Watched(0), finished = DispatchSemaphore(value: 0)
        var iterator = Self.sender(1000, sent: sent, finished: finished).values(bufferingPolicy: .lossless(capacity: 8)).makeAsyncIterator()
        #expect(await iterator.next() == 1)
        // The consumer is busy: the sender fills the buffer and waits, and so never finishes.
        #expect(sent.wait { $0 >= 8 })
        #expect(finished.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        #expect(sent.current <= 10, "sent \(sent.current) while 8 may wait")
        var received = [1]
        while let value = await iterator.next() { received.append(value) }
        #expect(received == Array(1...1000))
    }

    @Test("the default is bounded: 256 values wait, then the sender waits")
    func defaultBounded() async throws {
        let sent = Watched(0), finished = DispatchSemaphore(value: 0)
        var iterator = Self.sender(10_000, sent: sent, finished: finished).values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(sent.wait { $0 >= 256 })
        #expect(finished.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        #expect(sent.current <= 258, "sent \(sent.current) while 256 may wait")
        var count = 1
        while await iterator.next() != nil { count += 1 }
        #expect(count == 10_000)
    }

    @Test("a signal that sends as it is subscribed is never made to wait: every value arrives")
    func synchronousSender() async {
        var received: [Int] = []
        for await value in Signal<Int, Never>.from(1...1000).values(bufferingPolicy: .lossless(capacity: 8)) { received.append(value) }
        #expect(received == Array(1...1000))
    }

    @Test("newest: the sender never waits; the oldest are pushed out and counted; the end is kept")
    func newestDrops() async throws {
        let sent = Watched(0)
        let dropped = DropCounter()
        var iterator = Self.sender(1000, sent: sent).values(bufferingPolicy: .newest(capacity: 4), dropped: dropped).makeAsyncIterator()
        // No one takes a value until the sender is done: it never waited.
        #expect(sent.wait(seconds: 10) { $0 == 1000 })
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        #expect(received == Array(997...1000))
        #expect(dropped.count == 1000 - 4)
    }

    @Test("leaving the loop frees a sender waiting for room, and disposes the subscription")
    func leavingFreesSender() async throws {
        let sent = Watched(0)
        let ended = Watched(false)
        let signal = Signal<Int, Never> { observer in
            let thread = Thread {
                for value in 1...1000 {
                    observer.next(value)
                    sent.change { $0 += 1 }
                }
                ended.change { $0 = true }
            }
            thread.start()
            return nil
        }
        do {
            for await value in signal.values(bufferingPolicy: .lossless(capacity: 2)) where value == 3 { break }
        }
        // The sender is not left waiting for a consumer that is gone.
        #expect(ended.wait(seconds: 10) { $0 })
    }
}

extension BoundedValuesTests {
    @Test("a sender in a Swift task is never made to wait (it would hold a thread of the cooperative pool): its values are kept past the bound")
    func taskSenderNeverWaits() async throws {
        let sent = Watched(0)
        // The task runs on a queue of its own: the cooperative pool (two threads on a
        // two-core machine) may be held by other tests' blocking waits.
        let executor = QueueTaskExecutor()
        let signal = Signal<Int, Never> { observer in
            Task(executorPreference: executor) {
                for value in 1...1000 {
                    observer.next(value)
                    sent.change { $0 += 1 }
                }
                observer.completed()
            }
            return nil
        }
        var iterator = signal.values(bufferingPolicy: .lossless(capacity: 8)).makeAsyncIterator()
        #expect(sent.wait(seconds: 10) { $0 == 1000 })
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        #expect(received == Array(1...1000))
    }

    @Test("the bound's state machine: full makes a sender that may wait wait, the subscribing thread and a sender that may not are let through, a value taken frees one sender, closing frees all")
    func roomStateMachine() {
        var room = SignalValuesRoomStateMachine(capacity: 2)
        let sender: UInt = 7
        #expect(room.send(from: sender, senderMayWait: nil) == .send)
        #expect(room.send(from: sender, senderMayWait: nil) == .send)
        #expect(room.send(from: sender, senderMayWait: nil) == .askWhetherSenderMayWait)
        #expect(room.send(from: sender, senderMayWait: false) == .send)
        room.subscribingThread = sender
        #expect(room.send(from: sender, senderMayWait: nil) == .send)
        room.subscribingThread = nil
        // Four wait now; the sender waits until two are taken.
        #expect(room.send(from: sender, senderMayWait: true) == .waitForRoom)
        #expect(room.taken() == false)
        #expect(room.taken() == false)
        #expect(room.taken() == true)
        #expect(room.send(from: sender, senderMayWait: true) == .send)
        #expect(room.send(from: sender, senderMayWait: true) == .waitForRoom)
        #expect(room.close() == 1)
        #expect(room.close() == 0)
        #expect(room.send(from: sender, senderMayWait: true) == .consumerGone)
    }
}

/// Runs a task's jobs on a serial queue of its own, apart from the cooperative pool.
private final class QueueTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "BridgeTests.task")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
