import Testing
import Signals
import Platform
import TestSupport

@Suite("Subjects", .mayBlock)
struct SubjectTests {
    @Test("a subject sends to current observers only, and keeps its terminal event")
    func hot() {
        let subject = Subject<Int, TestError>()
        let early = Recorder<Int, TestError>()
        _ = early.observe(subject.signal)
        subject.next(1)
        let late = Recorder<Int, TestError>()
        _ = late.observe(subject.signal)
        subject.next(2)
        subject.failed(TestError())
        subject.next(3)
        let after = Recorder<Int, TestError>()
        _ = after.observe(subject.signal)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
        #expect(early.terminalCount == 1)
        #expect(after.events.count == 1)
        #expect(after.terminalCount == 1)
    }

    @Test("a subject that keeps its latest value gives it only to the observers that ask, under its lock")
    func keepsLatest() {
        let subject = Subject<Int, Never>(keepingLatest: { $0.isMultiple(of: 2) })
        let before = Recorder<Int, Never>()
        _ = before.observe(subject.signal(replayingLatest: true))
        #expect(before.values.isEmpty)
        subject.next(2)
        subject.next(3)
        #expect(subject.latestValue == 2)
        let asking = Recorder<Int, Never>(), live = Recorder<Int, Never>(), plain = Recorder<Int, Never>()
        _ = asking.observe(subject.signal(replayingLatest: true))
        _ = live.observe(subject.signal(replayingLatest: false))
        _ = plain.observe(subject.signal)
        subject.next(4)
        subject.next(5)
        #expect(before.values == [2, 3, 4, 5])
        #expect(asking.values == [2, 4, 5])
        #expect(live.values == [4, 5])
        #expect(plain.values == [4, 5])
        #expect(subject.latestValue == 4)
        #expect(subject.replayValues.isEmpty)
        // A sender that races the subscription: each observer sees the latest kept value
        // once, then every later value, none missing or repeated.
        let racing = Subject<Int, Never>(keepingLatest: { _ in true })
        racing.next(0)
        let recorders = (0..<8).map { _ in Recorder<Int, Never>() }
        onThreads(9) { index in
            if index == 8 {
                for value in 1...2_000 { racing.next(value) }
            } else {
                _ = recorders[index].observe(racing.signal(replayingLatest: true))
            }
        }
        for recorder in recorders {
            let values = recorder.values
            #expect(values.last == 2_000)
            #expect(values == Array(values.first!...2_000))
        }
    }

    @Test("a replay subject replays its last values, then its terminal event")
    func replay() {
        let subject = Subject<Int, Never>(capacity: 2)
        subject.next(1)
        subject.next(2)
        subject.next(3)
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(subject.signal)
        subject.next(4)
        subject.completed()
        let late = Recorder<Int, Never>()
        _ = late.observe(subject.signal)
        #expect(recorder.values == [2, 3, 4])
        #expect(recorder.isCompleted)
        #expect(late.values == [3, 4])
        #expect(late.isCompleted)
    }

    @Test("a property sends its current value, then each change")
    func property() {
        let property = Property(1)
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(property.signal)
        property.value = 2
        property.modify { $0 += 10 }
        #expect(recorder.values == [1, 2, 12])
        #expect(property.value == 12)
    }

    @Test("a handler may send to the subject it observes")
    func reentrantSend() {
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        _ = subject.signal.observe { event in
            recorder.record(event)
            if event.value == 1 { subject.next(2) }
        }
        subject.next(1)
        #expect(recorder.values == [1, 2])
    }

    @Test("during a delivery, a handler may remove a later observer, add one, or end the subject")
    func changesDuringDelivery() {
        let subject = Subject<Int, Never>()
        let later = Recorder<Int, Never>()
        let added = Recorder<Int, Never>()
        let laterSubscription = Protected<Disposable?>(nil)
        let addedSubscription = Protected<Disposable?>(nil)
        _ = subject.signal.observe(next: { value in
            switch value {
            case 1: laterSubscription.withLock { $0 }?.dispose()
            case 2: addedSubscription.withLock { $0 = added.observe(subject.signal) }
            case 3: subject.completed()
            default: break
            }
        })
        laterSubscription.withLock { $0 = later.observe(subject.signal) }
        let last = Recorder<Int, Never>()
        _ = last.observe(subject.signal)
        subject.next(1)  // `later` is removed before its turn: it receives nothing
        subject.next(2)  // `added` joins during this value: it receives the next ones only
        subject.next(3)  // the end reaches every observer; the value that caused it goes no further
        subject.next(4)
        #expect(later.events.isEmpty)
        #expect(added.events.count == 1 && added.isCompleted)
        #expect(last.values == [1, 2])
        #expect(last.isCompleted && last.events.count == 3)
        #expect(subject.observerCount == 0)
    }

    @Test("observers removed during a delivery leave the list, and their handlers are released")
    func removalDuringDeliveryReleases() {
        final class Captured: Sendable {}
        let subject = Subject<Int, Never>()
        weak var weakCaptured: Captured?
        let subscriptions = Protected<[Disposable]>([])
        do {
            let captured = Captured()
            weakCaptured = captured
            subscriptions.withLock { $0.append(subject.signal.observe(next: { _ in _ = captured })) }
        }
        let remover = subject.signal.observe(next: { _ in
            for subscription in subscriptions.withLock({ $0 }) { subscription.dispose() }
        })
        subscriptions.withLock { $0.append(subject.signal.observe(next: { _ in })) }
        #expect(subject.observerCount == 3)
        subject.next(1)
        #expect(subject.observerCount == 1)
        #expect(weakCaptured == nil)
        remover.dispose()
        #expect(subject.observerCount == 0)
    }
}
