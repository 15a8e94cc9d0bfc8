import Testing
import Signals
import SignalsTesting
import TestSupport

/// Time-based operators, in virtual time: `(time in ms, value)` pairs.
@Suite("Time-based operators", .mayBlock)
struct TimeOperatorTests {
    /// Records values with the virtual time they arrived at.
    final class Timeline<Value: Sendable>: @unchecked Sendable {
        let scheduler: TestScheduler
        private let recorder = Recorder<(Int64, Value), TestError>()
        private let ends = Recorder<Int64, Never>()
        init(_ scheduler: TestScheduler) { self.scheduler = scheduler }
        var entries: [(Int64, Value)] { recorder.values }
        var endedAt: Int64? { ends.values.first }
        var milliseconds: Int64 { Int64(scheduler.now / .milliseconds(1)) }
        func observe(_ signal: Signal<Value, TestError>) -> Disposable {
            signal.observe { [self] event in
                if event.isTerminal { ends.record(.next(milliseconds)) }
                recorder.record(event.map { (milliseconds, $0) })
            }
        }
    }

    /// Sends `values` at the given virtual times (ms), then completes at `end`.
    func schedule(_ subject: Subject<Int, TestError>, _ values: [(Int64, Int)], end: Int64?, on scheduler: TestScheduler) {
        for (time, value) in values { scheduler.schedule(after: .milliseconds(time)) { subject.next(value) } }
        if let end { scheduler.schedule(after: .milliseconds(end)) { subject.completed() } }
    }

    @Test("delay shifts values and completion, not failures")
    func delay() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let timeline = Timeline<Int>(scheduler)
        _ = timeline.observe(subject.signal.delay(.milliseconds(100), on: scheduler))
        schedule(subject, [(0, 1), (50, 2)], end: 60, on: scheduler)
        scheduler.run()
        #expect(timeline.entries.map(\.0) == [100, 150])
        #expect(timeline.entries.map(\.1) == [1, 2])
        #expect(timeline.endedAt == 160)
        let failing = Subject<Int, TestError>()
        let failed = Timeline<Int>(scheduler)
        _ = failed.observe(failing.signal.delay(.milliseconds(100), on: scheduler))
        failing.next(1)
        failing.failed(TestError())
        scheduler.run()
        #expect(failed.entries.isEmpty)
        #expect(failed.endedAt == 160)
    }

    @Test("throttle: at most one value per interval, the newest, and the last one kept")
    func throttle() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let timeline = Timeline<Int>(scheduler)
        _ = timeline.observe(subject.signal.throttle(.milliseconds(100), on: scheduler))
        schedule(subject, [(0, 1), (10, 2), (20, 3), (150, 4), (260, 5), (270, 6)], end: 280, on: scheduler)
        scheduler.run()
        #expect(timeline.entries.map(\.0) == [0, 100, 200, 300])
        #expect(timeline.entries.map(\.1) == [1, 3, 4, 6])
        #expect(timeline.endedAt == 300)
    }

    @Test("debounce: a value goes out after a quiet interval; the last one on completion")
    func debounce() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let timeline = Timeline<Int>(scheduler)
        _ = timeline.observe(subject.signal.debounce(.milliseconds(100), on: scheduler))
        schedule(subject, [(0, 1), (50, 2), (300, 3), (350, 4)], end: 380, on: scheduler)
        scheduler.run()
        #expect(timeline.entries.map(\.0) == [150, 380])
        #expect(timeline.entries.map(\.1) == [2, 4])
        #expect(timeline.endedAt == 380)
    }

    @Test("timeout fails when no value comes in time, and disposes the upstream")
    func timeout() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let timeline = Timeline<Int>(scheduler)
        _ = timeline.observe(subject.signal.timeout(after: .milliseconds(100), raising: TestError(), on: scheduler))
        schedule(subject, [(50, 1), (140, 2), (300, 3)], end: nil, on: scheduler)
        scheduler.run()
        #expect(timeline.entries.map(\.1) == [1, 2])
        #expect(timeline.endedAt == 240)
        #expect(subject.observerCount == 0)
        let completing = Timeline<Int>(scheduler)
        _ = completing.observe(Signal<Int, TestError>.just(1).timeout(after: .seconds(1), raising: TestError(), on: scheduler))
        scheduler.run()
        #expect(scheduler.pendingCount == 0)
    }

    @Test("interval ticks every period from the start, until disposed")
    func interval() {
        let scheduler = TestScheduler()
        let timeline = Timeline<Int>(scheduler)
        let subscription = timeline.observe(Signal<Int, TestError>.interval(.milliseconds(250), on: scheduler))
        scheduler.advance(by: .milliseconds(1000))
        #expect(timeline.entries.map(\.0) == [250, 500, 750, 1000])
        #expect(timeline.entries.map(\.1) == [0, 1, 2, 3])
        subscription.dispose()
        scheduler.advance(by: .seconds(10))
        #expect(timeline.entries.count == 4)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("receive(on:) and subscribe(on:) move the work onto the scheduler")
    func schedulers() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int, Never>()
        _ = recorder.observe(Signal<Int, Never>.just(1, 2).receive(on: scheduler))
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.values == [1, 2] && recorder.isCompleted)
        let probe = UpstreamProbe()
        let subscription = probe.signal { (_: Observer<Int, Never>) in }.subscribe(on: scheduler).observe(next: { _ in })
        #expect(probe.subscriptions == 0)
        scheduler.advance()
        #expect(probe.open == 1)
        subscription.dispose()
        #expect(probe.open == 1)
        scheduler.advance()
        #expect(probe.open == 0)
    }
}
