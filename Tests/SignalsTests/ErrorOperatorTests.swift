import Testing
import Signals

@Suite("Errors and side effects")
struct ErrorOperatorTests {
    @Test("catch goes on with the handler's signal; mapError transforms the failure")
    func catchAndMapError() {
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(Signal<Int, TestError>.fail(TestError()).catch { _ in .just(7) })
        #expect(recorder.values == [7] && recorder.isCompleted)
        struct Other: Error {}
        let mapped = Recorder<Int, Other>()
        _ = mapped.observe(Signal<Int, TestError>.fail(TestError()).mapError { _ in Other() })
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
            observer.send(attempt)
            if attempt < 3 { observer.send(error: TestError()) } else { observer.sendCompleted() }
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
        _ = deep.observe(Signal<Int, TestError>.fail(TestError()).retry(upTo: 100_000))
        #expect(deep.terminalCount == 1)
    }

    @Test("retry after an asynchronous failure resubscribes the upstream")
    func retryAsynchronous() {
        let probe = UpstreamProbe()
        let subject = Subject<Int, TestError>()
        let upstream = Signal<Int, TestError> { observer in
            probe.subscribed()
            let inner = subject.signal.observe(observer)
            return ActionDisposable { inner.dispose(); probe.disposed() }
        }
        let recorder = Recorder<Int, TestError>()
        let subscription = recorder.observe(upstream.retry(upTo: 2))
        // The subject keeps its failure: every later attempt fails at once, until none is left.
        subject.send(error: TestError())
        #expect(probe.subscriptions == 3)
        #expect(probe.open == 0)
        #expect(recorder.terminalCount == 1)
        subscription.dispose()
    }

    @Test("on(event:) runs side effects in order, and disposed once")
    func sideEffects() {
        let log = Recorder<String, Never>()
        let signal = Signal<Int, Never>.just(1, 2).on(
            event: { _ in log.record(.next("event")) },
            next: { log.record(.next("next \($0)")) },
            completed: { log.record(.next("completed")) },
            terminated: { log.record(.next("terminated")) },
            disposed: { log.record(.next("disposed")) }
        ).doNext { log.record(.next("doNext \($0)")) }
        let subscription = signal.observe(next: { _ in })
        subscription.dispose()
        #expect(log.values == [
            "event", "next 1", "doNext 1", "event", "next 2", "doNext 2",
            "event", "completed", "terminated", "disposed",
        ])
    }
}
