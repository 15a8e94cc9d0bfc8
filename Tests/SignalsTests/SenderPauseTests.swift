import Testing
@testable import Signals
import SignalsTesting
import TestSupport
import Platform

/// A lossless buffer that holds a sender that pauses, instead of making its thread wait.
@Suite("Sender paused by a full buffer", .mayBlock)
struct SenderPauseTests {
    /// What the pause told, in order.
    final class Changes: Sendable {
        let told = Protected<[Bool]>([])
        var all: [Bool] { told.withLock { $0 } }
        func pause() -> SenderPause { SenderPause { [told] paused in told.withLock { $0.append(paused) } } }
    }

    @Test("the state machine: full holds the sender once, keeps what follows in order past the capacity, and lets go at half")
    func stateMachine() {
        var state = BufferStateMachine<Int, Never>(policy: .lossless(capacity: 4), pausesSender: true)
        let actions = (1...7).map { state.send($0) }
        #expect(actions == [.startDraining, .none, .none, .none, .holdSender, .none, .none])
        var taken: [Int] = []
        var releasedAfter: [Int] = []
        while true {
            let take = state.take()
            guard case .next(let value)? = take.event else { break }
            taken.append(value)
            if take.releaseSender { releasedAfter.append(value) }
        }
        #expect(taken == Array(1...7))
        // Let go once, when nothing overflowed and at most two (half of four) waited: after 5.
        #expect(releasedAfter == [5])
        let next = state.send(8)
        #expect(next == .startDraining)
    }

    @Test("the state machine: a batch taken at once refills from what overflowed, in order; closing lets go of a held sender")
    func stateMachineBatchAndClose() {
        var state = BufferStateMachine<Int, Never>(policy: .lossless(capacity: 2), pausesSender: true)
        let actions = (1...6).map { state.send($0) }
        #expect(actions == [.startDraining, .none, .holdSender, .none, .none, .none])
        var batch = RingBuffer<Int>(capacity: 2)
        var delivered: [Int] = []
        var released = false
        while let freed = state.takeAll(into: &batch) {
            released = released || freed.releaseSender
            while let value = batch.removeFirst() { delivered.append(value) }
        }
        #expect(delivered == Array(1...6))
        #expect(released)
        // Still draining (take() ends a drain): the next two wait, the third holds again.
        let more = (7...9).map { state.send($0) }
        #expect(more == [.none, .none, .holdSender])
        let freed = state.close()
        #expect(freed.releaseSender)
        #expect(freed.sendersWaiting == 0)
    }

    @Test("a buffer with a pause: the sender is never made to wait; it is told to pause once, every value comes in order, then it is told to go on")
    func bufferHoldsWithoutWaiting() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        let changes = Changes()
        let subscription = recorder.observe(subject.signal.buffer(.lossless(capacity: 4), senderWaits: true, pause: changes.pause(),
                                                                  dropped: nil) { scheduler })
        defer { subscription.dispose() }
        // Nothing drains until the scheduler runs: with a sender that waited, this would hang.
        for value in 1...20 { subject.next(value) }
        subject.completed()
        #expect(changes.all == [true])
        scheduler.run()
        #expect(recorder.values == Array(1...20))
        #expect(recorder.isCompleted)
        #expect(changes.all == [true, false])
    }

    @Test("values with a pause: a full sequence holds the sender without a wait, and lets go at half its capacity")
    func valuesRoom() {
        var room = SignalValuesRoomStateMachine(capacity: 4, pausesSender: true)
        let actions = (1...6).map { _ in room.send(from: 1, senderMayWait: nil) }
        #expect(actions == [.send, .send, .send, .send, .sendAndHoldSender, .send])
        // Six wait: let go once two (half of four) do, and only then.
        var letGo: [Bool] = []
        for _ in 1...5 {
            _ = room.taken()
            letGo.append(room.letGoOfSender())
        }
        #expect(letGo == [false, false, false, true, false])
    }

    @Test("a pause counts its holds: paused from the first, going on after the last")
    func holdsCounted() {
        let changes = Changes()
        let pause = changes.pause()
        pause.hold()
        pause.hold()
        #expect(pause.isPaused)
        pause.release()
        #expect(pause.isPaused)
        pause.release()
        #expect(!pause.isPaused)
        #expect(changes.all == [true, false])
    }
}
