import Testing
import Signals
import Platform
import TestSupport

@Suite("Signal and its observer", .mayBlock)
struct SignalTests {
    @Test("the body runs once per subscription, and events follow next* (error | completed)?")
    func grammar() {
        let runs = Protected(0)
        let signal = Signal<Int, TestError> { observer in
            runs.withLock { $0 += 1 }
            observer.next(1)
            observer.completed()
            observer.next(2)
            observer.failed(TestError())
            return nil
        }
        let first = Recorder<Int, TestError>()
        let second = Recorder<Int, TestError>()
        _ = first.observe(signal)
        _ = second.observe(signal)
        #expect(runs.withLock { $0 } == 2)
        #expect(first.values == [1])
        #expect(first.isCompleted)
        #expect(first.events.count == 2)
        #expect(second.events.count == 2)
    }

    @Test("disposing stops delivery and releases the body's resources, once")
    func disposal() {
        let released = Protected(0)
        let sender = Protected<Observer<Int, Never>?>(nil)
        let signal = Signal<Int, Never> { observer in
            sender.withLock { $0 = observer }
            return BlockDisposable { released.withLock { $0 += 1 } }
        }
        let recorder = Recorder<Int, Never>()
        let subscription = recorder.observe(signal)
        let observer = sender.withLock { $0 }!
        observer.next(1)
        subscription.dispose()
        subscription.dispose()
        observer.next(2)
        observer.completed()
        #expect(recorder.values == [1])
        #expect(recorder.events.count == 1)
        #expect(released.withLock { $0 } == 1)
        #expect(!observer.isActive)
    }

    @Test("a terminal event releases the body's resources without a dispose")
    func terminalReleases() {
        let released = Protected(false)
        let signal = Signal<Int, Never> { observer in
            observer.completed()
            return BlockDisposable { released.withLock { $0 = true } }
        }
        _ = signal.observe(next: { _ in })
        #expect(released.withLock { $0 })
    }

    @Test("dispose from inside a next handler: nothing more arrives")
    func disposeInsideNext() {
        let recorder = Recorder<Int, Never>()
        let subject = Subject<Int, Never>()
        let holder = SerialDisposable()
        holder.inner = subject.signal.observe { event in
            recorder.record(event)
            if event.value == 2 { holder.dispose() }
        }
        for value in 1...5 { subject.next(value) }
        #expect(recorder.values == [1, 2])
        #expect(recorder.events.count == 2)
    }

    @Test("concurrent senders: every value once, one terminal event, nothing after it")
    func concurrentSenders() {
        let sender = Protected<Observer<Int, Never>?>(nil)
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(Signal { observer in
            sender.withLock { $0 = observer }
            return nil
        })
        let observer = sender.withLock { $0 }!
        onThreads(8) { thread in
            for index in 0..<500 { observer.next(thread * 1000 + index) }
            observer.completed()
            for index in 0..<10 { observer.next(-index) }
        }
        let events = recorder.events
        #expect(events.filter(\.isTerminal).count == 1)
        #expect(events.last?.isTerminal == true)
        #expect(Set(recorder.values).count == recorder.values.count)
    }
}
