import Testing
import Signals
import Platform
import TestSupport

@Suite("Errors and side effects", .mayBlock)
struct ErrorOperatorTests {
    @Test("flatMapError goes on with the handler's signal; mapError transforms the failure")
    func catchAndMapError() {
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(Signal<Int, TestError>.failed(TestError()).flatMapError { _ in .just(7) })
        #expect(recorder.values == [7] && recorder.isCompleted)
        struct Other: Error {}
        let mapped = Recorder<Int, Other>()
        _ = mapped.observe(Signal<Int, TestError>.failed(TestError()).mapError { _ in Other() })
        #expect(mapped.terminalCount == 1)
    }

    @Test("retry subscribes again after a failure, up to the count, then fails")
    func retry() {
        let attempts = Protected(0)
        let flaky = Signal<Int, TestError> { observer in
            let attempt = attempts.withLock { attempts -> Int in
                attempts += 1
                return attempts
            }
            observer.next(attempt)
            if attempt < 3 { observer.failed(TestError()) } else { observer.completed() }
            return nil
        }
        let recovered = Recorder<Int, TestError>()
        _ = recovered.observe(flaky.retry(upTo: 5))
        #expect(recovered.values == [1, 2, 3] && recovered.isCompleted)
        attempts.withLock { $0 = 0 }
        let exhausted = Recorder<Int, TestError>()
        _ = exhausted.observe(flaky.retry(upTo: 1))
        #expect(exhausted.values == [1, 2])
        #expect(exhausted.terminalCount == 1 && !exhausted.isCompleted)
        let deep = Recorder<Int, TestError>()
        _ = deep.observe(Signal<Int, TestError>.failed(TestError()).retry(upTo: 100_000))
        #expect(deep.terminalCount == 1)
    }

    @Test("retry after an asynchronous failure resubscribes the upstream")
    func retryAsynchronous() {
        let probe = UpstreamProbe()
        let subject = Subject<Int, TestError>()
        let upstream = Signal<Int, TestError> { observer in
            probe.subscribed()
            let inner = subject.signal.observe(observer)
            return BlockDisposable { inner.dispose(); probe.disposed() }
        }
        let recorder = Recorder<Int, TestError>()
        let subscription = recorder.observe(upstream.retry(upTo: 2))
        // The subject keeps its failure: every later attempt fails at once, until none is left.
        subject.failed(TestError())
        #expect(probe.subscriptions == 3)
        #expect(probe.open == 0)
        #expect(recorder.terminalCount == 1)
        subscription.dispose()
    }

    @Test("doOn(event:) runs side effects in order, and disposed once")
    func sideEffects() {
        let log = Recorder<String, Never>()
        let signal = Signal<Int, Never>.just(1, 2).doOn(
            event: { _ in log.record(.next("event")) },
            next: { log.record(.next("next \($0)")) },
            completed: { log.record(.next("completed")) },
            terminated: { log.record(.next("terminated")) },
            disposed: { log.record(.next("disposed")) }
        ).doOn(next: { log.record(.next("then next \($0)")) })
        let subscription = signal.observe(next: { _ in })
        subscription.dispose()
        #expect(log.values == [
            "event", "next 1", "then next 1", "event", "next 2", "then next 2",
            "event", "completed", "terminated", "disposed",
        ])
    }

    @Test("doOn(disposed:) alone: every event passes unchanged, and disposed runs once, on dispose or after the end")
    func disposedOnly() {
        let subject = Subject<Int, TestError>()
        let disposals = Protected(0)
        let recorder = Recorder<Int, TestError>()
        let subscription = recorder.observe(subject.signal.doOn(disposed: { disposals.withLock { $0 += 1 } }))
        subject.next(1)
        subject.next(2)
        #expect(recorder.values == [1, 2] && disposals.withLock { $0 } == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(disposals.withLock { $0 } == 1)
        let ended = Recorder<Int, TestError>()
        _ = ended.observe(subject.signal.doOn(disposed: { disposals.withLock { $0 += 1 } }))
        subject.failed(TestError())
        #expect(ended.terminalCount == 1 && disposals.withLock { $0 } == 2)
    }
}
