import Dispatch
import Testing
import Signals
import SignalsTesting
import Platform
import TestSupport

@Suite("HandOff", .mayBlock)
struct HandOffTests {
    @Test("a sender faster than the scheduler never waits: at most the capacity waits, the oldest pushed out and counted, the newest delivered in order")
    func boundedUnderFlood() {
        let scheduler = TestScheduler()
        let delivered = Protected<[Int]>([])
        let dropped = DropCounter()
        let handOff = HandOff<Int>(capacity: 4, on: scheduler, dropped: dropped) { value in delivered.withLock { $0.append(value) } }
        for value in 1...1_000_000 { handOff.send(value) }
        // One drain asked for, however many were sent.
        #expect(scheduler.pendingCount == 1)
        #expect(dropped.count == 1_000_000 - 4)
        scheduler.run()
        #expect(delivered.withLock { $0 } == [999_997, 999_998, 999_999, 1_000_000])
        handOff.send(7)
        scheduler.run()
        #expect(delivered.withLock { $0.last } == 7)
    }

    @Test("nothing is delivered after close, and what waited is discarded")
    func closeDiscards() {
        let scheduler = TestScheduler()
        let delivered = Protected<[Int]>([])
        let handOff = HandOff<Int>(capacity: 8, on: scheduler) { value in delivered.withLock { $0.append(value) } }
        handOff.send(1)
        handOff.send(2)
        handOff.close()
        handOff.send(3)
        scheduler.run()
        #expect(delivered.withLock { $0 }.isEmpty)
    }

    @Test("a blocked receiver holds up no sender: values sent from other threads while it waits are bounded by the capacity")
    func blockedReceiver() {
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let delivered = Protected<[Int]>([])
        let dropped = DropCounter()
        let handOff = HandOff<Int>(capacity: 16, on: QueueScheduler(), dropped: dropped) { value in
            if value == 0 {
                started.signal()
                gate.wait()
            }
            delivered.withLock { $0.append(value) }
        }
        handOff.send(0)
        started.wait()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 1...10_000 { handOff.send(thread * 10_000 + value) }
        }
        gate.signal()
        let done = DispatchSemaphore(value: 0)
        handOff.send(-1)
        // The receiver drains what is left; -1 is the last value sent.
        while delivered.withLock({ $0.last }) != -1 { _ = done.wait(timeout: .now() + .milliseconds(5)) }
        #expect(delivered.withLock { $0.count } <= 1 + 16 + 1)
        #expect(dropped.count + delivered.withLock { $0.count } == 40_002)
    }
}
