import Testing
import Signals

@Suite("Subjects")
struct SubjectTests {
    @Test("a subject sends to current observers only, and keeps its terminal event")
    func hot() {
        let subject = Subject<Int, TestError>()
        let early = Recorder<Int, TestError>()
        _ = early.observe(subject.signal)
        subject.send(1)
        let late = Recorder<Int, TestError>()
        _ = late.observe(subject.signal)
        subject.send(2)
        subject.send(error: TestError())
        subject.send(3)
        let after = Recorder<Int, TestError>()
        _ = after.observe(subject.signal)
        #expect(early.values == [1, 2])
        #expect(late.values == [2])
        #expect(early.terminalCount == 1)
        #expect(after.events.count == 1)
        #expect(after.terminalCount == 1)
    }

    @Test("a replay subject replays its last values, then its terminal event")
    func replay() {
        let subject = ReplaySubject<Int, Never>(capacity: 2)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(subject.signal)
        subject.send(4)
        subject.sendCompleted()
        let late = Recorder<Int, Never>()
        _ = late.observe(subject.signal)
        #expect(recorder.values == [2, 3, 4])
        #expect(recorder.isCompleted)
        #expect(late.values == [3, 4])
        #expect(late.isCompleted)
    }

    @Test("a property sends its current value, then each change")
    func property() {
        let property = MutableProperty(1)
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
            if event.value == 1 { subject.send(2) }
        }
        subject.send(1)
        #expect(recorder.values == [1, 2])
    }
}
