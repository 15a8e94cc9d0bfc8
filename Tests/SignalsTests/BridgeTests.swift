import Testing
import Signals

@Suite("Async bridges")
struct BridgeTests {
    @Test("values: every value in order, then the end")
    func values() async {
        var received: [Int] = []
        for await value in Signal<Int, Never>.from(1...5).values { received.append(value) }
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test("values of a failing signal throws its failure")
    func throwingValues() async {
        let signal = Signal<Int, TestError>.just(1).merge(with: .fail(TestError()))
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
            return ActionDisposable { inner.dispose(); probe.disposed() }
        }
        let consumer = Task {
            var count = 0
            for await _ in signal.values { count += 1 }
            return count
        }
        while probe.subscriptions == 0 { await Task.yield() }
        subject.send(1)
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
