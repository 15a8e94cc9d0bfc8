import Testing
import Signals
import SignalsTesting
import Platform
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Multicast and reference counting", .mayBlock)
struct RefCountTests {
    @Test("the first observer connects, the last one's dispose disconnects, the next reconnects")
    func connectDisconnectReconnect() {
        let probe = UpstreamProbe()
        let shared = probe.signal { (observer: Observer<Int, Never>) in observer.next(probe.subscriptions) }.share()
        let a = Recorder<Int, Never>()
        let b = Recorder<Int, Never>()
        let first = a.observe(shared)
        let second = b.observe(shared)
        #expect(probe.subscriptions == 1)
        #expect(a.values == [1])
        #expect(b.values == [])
        first.dispose()
        #expect(probe.disposals == 0)
        second.dispose()
        #expect(probe.disposals == 1)
        let c = Recorder<Int, Never>()
        let third = c.observe(shared)
        #expect(probe.subscriptions == 2)
        #expect(c.values == [2])
        third.dispose()
        #expect(probe.open == 0)
    }

    @Test("after the upstream completed, the next observer connects again with a fresh subject")
    func reconnectAfterCompletion() {
        let probe = UpstreamProbe()
        let upstream = Subject<Int, Never>()
        let shared = Signal<Int, Never> { observer in
            probe.subscribed()
            let inner = upstream.signal.observe(observer)
            return BlockDisposable { inner.dispose(); probe.disposed() }
        }.share()
        let a = Recorder<Int, Never>()
        let first = a.observe(shared)
        upstream.next(1)
        upstream.completed()
        #expect(a.isCompleted)
        // `upstream` is finished for good; a new connection subscribes to it again and completes.
        let b = Recorder<Int, Never>()
        _ = b.observe(shared)
        #expect(probe.subscriptions == 2)
        #expect(b.isCompleted)
        #expect(b.values == [])
        first.dispose()
        #expect(probe.open == 0)
    }

    @Test("shared signals over a subject that keeps its latest value: it is replayed only to the observers that ask, within the current connection")
    func latestFirstWithinConnection() {
        let upstream = Subject<Int, Never>()
        let shared = upstream.signal.multicast { Subject<Int, Never>(keepingLatest: { _ in true }) }.sharedSignals()
        let a = Recorder<Int, Never>()
        let first = a.observe(shared.signal)
        upstream.next(1)
        upstream.next(2)
        let b = Recorder<Int, Never>(), c = Recorder<Int, Never>()
        let second = b.observe(shared.latestFirst)
        let third = c.observe(shared.signal)
        upstream.next(3)
        #expect(a.values == [1, 2, 3])
        #expect(b.values == [2, 3])
        #expect(c.values == [3])
        first.dispose()
        second.dispose()
        third.dispose()
        // A new connection: a new subject, with no latest value yet.
        let d = Recorder<Int, Never>()
        _ = d.observe(shared.latestFirst)
        #expect(d.values.isEmpty)
        upstream.next(4)
        #expect(d.values == [4])
    }

    @Test("share(limit:) replays only within the current connection")
    func replayWithinConnection() {
        let upstream = Subject<Int, Never>()
        let shared = upstream.signal.share(limit: 1)
        let a = Recorder<Int, Never>()
        let first = a.observe(shared)
        upstream.next(1)
        upstream.next(2)
        let b = Recorder<Int, Never>()
        let second = b.observe(shared)
        #expect(b.values == [2])
        first.dispose()
        second.dispose()
        let c = Recorder<Int, Never>()
        _ = c.observe(shared)
        upstream.next(3)
        #expect(c.values == [3])
    }

    @Test("a manual connection: one upstream subscription however often connect is called")
    func manualConnect() {
        let probe = UpstreamProbe()
        let connection = probe.signal { (_: Observer<Int, Never>) in }.multicast { Subject<Int, Never>() }
        let handle = connection.connect()
        let again = connection.connect()
        #expect(probe.subscriptions == 1)
        handle.dispose()
        #expect(probe.open == 0)
        again.dispose()
        let newer = connection.connect()
        handle.dispose()  // a late dispose of an old connection touches nothing
        #expect(probe.open == 1)
        newer.dispose()
        #expect(probe.open == 0)
    }

    @Test("linger keeps the connection through quick churn, then disconnects (virtual time)")
    func linger() {
        let scheduler = TestScheduler()
        let probe = UpstreamProbe()
        let shared = probe.signal { (_: Observer<Int, Never>) in }
            .multicast { Subject<Int, Never>() }
            .refCount(linger: .seconds(2), on: scheduler)
        let first = shared.observe(next: { _ in })
        first.dispose()
        scheduler.advance(by: .seconds(1))
        #expect(probe.open == 1)
        let second = shared.observe(next: { _ in })
        scheduler.advance(by: .seconds(5))
        #expect(probe.subscriptions == 1)
        #expect(probe.open == 1)
        second.dispose()
        scheduler.advance(by: .milliseconds(1999))
        #expect(probe.open == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(probe.open == 0)
        #expect(probe.subscriptions == 1)
    }

    @Test("after the last dispose, observers, subjects and the upstream's resources are released")
    func releases() {
        final class Resource: Sendable {}
        final class WeakBox: @unchecked Sendable { weak var resource: Resource? }
        let box = WeakBox()
        weak var weakSubject: Subject<Int, Never>?
        do {
            let subject = Subject<Int, Never>()
            weakSubject = subject
            let shared = Signal<Int, Never> { _ in
                let resource = Resource()
                box.resource = resource
                return BlockDisposable { _ = resource }
            }.multicast { subject }.refCount()
            let subscription = shared.observe(next: { _ in })
            #expect(box.resource != nil)
            subscription.dispose()
        }
        #expect(box.resource == nil)
        #expect(weakSubject == nil)
    }

    @Test("after dispose, the handlers are released even while the body still holds its observer")
    func releasesHandlers() {
        final class Captured: Sendable {}
        let kept = Protected<Observer<Int, Never>?>(nil)
        let upstream = Signal<Int, Never> { observer in
            kept.withLock { $0 = observer }  // a body that outlives its subscription
            return nil
        }.share()
        weak var weakCaptured: Captured?
        let subscription: Disposable
        do {
            let captured = Captured()
            weakCaptured = captured
            subscription = upstream.observe(next: { _ in _ = captured })
        }
        #expect(weakCaptured != nil)
        subscription.dispose()
        #expect(weakCaptured == nil)
        kept.withLock { $0 }?.next(1)  // dropped: nothing is delivered after dispose
    }

    // No `.timeLimit`: Swift Testing counts from the test's start, which includes its wait for
    // a slot among the suites that run at once (TestSlots). A livelock is caught below.
    @Test("32 threads subscribing and disposing: one upstream per busy period, closed when idle")
    func stress() {
        let probe = UpstreamProbe()
        let shared = Signal<Int, Never> { observer in
            probe.subscribed()
            // A connect that takes a while, like opening a device (work, not a sleep).
            var spin = 0
            for step in 0..<2_000 { spin &+= step }
            precondition(spin > 0)
            observer.next(1)
            return BlockDisposable { probe.disposed() }
        }.share()
        let rounds = 2000
        let closedUnderObserver = Protected(0)
        // Under a second alone; a livelock fails here rather than holding the run.
        let finished = JoinableThread {
            onThreads(32) { _ in
                for _ in 0..<rounds {
                    let subscription = shared.observe(next: { _ in })
                    // While this observer is subscribed, the upstream is open.
                    if probe.open < 1 { closedUnderObserver.withLock { $0 += 1 } }
                    subscription.dispose()
                }
            }
        }
        guard finished.join(seconds: 120) else {
            Issue.record("32 threads did not finish 2,000 rounds each in 120 s")
            return
        }
        #expect(closedUnderObserver.withLock { $0 } == 0)
        #expect(probe.open == 0)
        #expect(probe.peak == 1)
        #expect(probe.subscriptions == probe.disposals)
        #expect(probe.subscriptions >= 1)
    }
}
