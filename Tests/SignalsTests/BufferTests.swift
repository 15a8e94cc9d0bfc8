#if canImport(Glibc)
import Glibc
import Platform
#endif
import Dispatch
import Synchronization
import Testing
import Signals
import SignalsTesting
import TestSupport

@Suite("buffer(_:on:dropped:)", .mayBlock)
struct BufferTests {
    @Test("newest: a burst leaves the newest values and counts the others; the end is never dropped")
    func newestBurst() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        let dropped = DropCounter()
        _ = recorder.observe(subject.signal.buffer(.newest(capacity: 3), on: scheduler, dropped: dropped))
        for value in 1...10 { subject.next(value) }
        subject.completed()
        #expect(recorder.events.isEmpty, "nothing is delivered before the scheduler runs")
        scheduler.run()
        #expect(recorder.values == [8, 9, 10])
        #expect(recorder.isCompleted)
        #expect(dropped.count == 7)
    }

    @Test("newest: values that arrive while the observer is busy wait, and push out the oldest waiting")
    func newestWhileBusy() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        let dropped = DropCounter()
        _ = subject.signal.buffer(.newest(capacity: 2), on: scheduler, dropped: dropped).observe { event in
            recorder.record(event)
            // The first value's handler is slow: five more arrive meanwhile.
            if event.value == 1 { for value in 2...6 { subject.next(value) } }
        }
        subject.next(1)
        scheduler.run()
        #expect(recorder.values == [1, 5, 6])
        #expect(dropped.count == 3)
    }

    @Test("a sender that never waits: lossless skips ahead at its capacity, counted, in the buffer and in values alike; a scheduler per subscription")
    func senderNeverWaits() async throws {
        let scheduler = TestScheduler()
        let made = Protected(0)
        let subject = Subject<Int, TestError>()
        let dropped = DropCounter()
        let signal = subject.signal.buffer(.lossless(capacity: 3), senderWaits: false, dropped: dropped) {
            made.withLock { $0 += 1 }
            return scheduler
        }
        let recorder = Recorder<Int, TestError>()
        let first = recorder.observe(signal)
        let second = Recorder<Int, TestError>().observe(signal)
        #expect(made.withLock { $0 } == 2)
        // The sender is this thread, which would wait forever for a scheduler that has not run.
        for value in 1...10 { subject.next(value) }
        scheduler.run()
        #expect(recorder.values == [8, 9, 10])
        #expect(dropped.count == 14, "7 skipped by each of the two subscriptions")
        first.dispose()
        second.dispose()

        // Asked lossless, the sequence skips ahead too; its own counter and the buffer's count.
        let own = DropCounter()
        var iterator = signal.values(bufferingPolicy: .lossless(capacity: 2), dropped: own).makeAsyncIterator()
        for value in 11...15 { subject.next(value) }
        subject.completed()
        var received: [Int] = []
        while let value = try await iterator.next() { received.append(value) }
        #expect(received == [14, 15])
        #expect(own.count == 3)
        #expect(dropped.count == 14 + 3)
    }

    @Test("lossless: every value in order, however many, when they fit")
    func losslessInOrder() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        _ = recorder.observe(subject.signal.buffer(.lossless(capacity: 100), on: scheduler))
        for value in 1...100 { subject.next(value) }
        subject.failed(TestError())
        scheduler.run()
        #expect(recorder.values == Array(1...100))
        #expect(recorder.terminalCount == 1 && !recorder.isCompleted)
    }

    @Test("lossless: a full buffer makes the sender wait for the observer, and loses nothing")
    func losslessBackpressure() {
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        let gate = DispatchSemaphore(value: 0)
        let sent = Watched(0)
        _ = subject.signal.buffer(.lossless(capacity: 2), on: QueueScheduler()).observe { event in
            if event.value == 1 { gate.wait() }
            recorder.record(event)
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 1...50 {
                subject.next(value)
                sent.change { $0 += 1 }
            }
            subject.completed()
            done.signal()
        }
        // The observer is held in its first value (taken out with any other that waited then):
        // two more wait, and the sender waits with the next (sent counts the values whose send
        // returned). It stays there: given time (a sender that never waited would be through
        // all 50 long before), the count is 3 or 4. (Whether 3 or 4 depends on how many values
        // the observer's queue took out with the first, so the count is not sampled earlier.)
        #expect(sent.wait { $0 >= 3 })
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "the sender waits")
        #expect((3...4).contains(sent.current))
        #expect(recorder.values.isEmpty)
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(recorder.wait { recorder.isCompleted })
        #expect(recorder.values == Array(1...50))
    }

    @Test("disposing frees a sender that waits for room, and nothing is delivered after")
    func disposeFreesSender() {
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        let gate = DispatchSemaphore(value: 0), recorded = DispatchSemaphore(value: 0)
        let subscription = subject.signal.buffer(.lossless(capacity: 1), on: QueueScheduler()).observe { event in
            if event.value == 1 { gate.wait() }
            recorder.record(event)
            recorded.signal()
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for value in 1...5 { subject.next(value) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut, "the sender waits for room")
        subscription.dispose()
        #expect(done.wait(timeout: .now() + 10) == .success, "disposed: the sender goes on")
        gate.signal()
        // The value the observer was in when disposed (if the drain had begun) is the last it
        // records: one record at most, and then no other.
        _ = recorded.wait(timeout: .now() + 1)
        #expect(recorded.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        #expect(recorder.values.count <= 1)
        #expect(recorder.terminalCount == 0)
    }

    @Test("a ring buffer of any capacity keeps order across its wrap-around")
    func ringOrder() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(subject.signal.buffer(.lossless(capacity: 3), on: scheduler))
        var expected: [Int] = []
        for round in 0..<10 {
            let values = (0..<(round % 3 + 1)).map { round * 10 + $0 }
            values.forEach(subject.next)
            expected += values
            scheduler.run()
        }
        #expect(recorder.values == expected)
    }
}
