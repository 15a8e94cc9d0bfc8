import SignalsTesting
import Signals
import Testing
@testable import NMEAStream
import Platform
import TestSupport

/// The merged monitor on a virtual clock: members fed by hand, the timer on the test
/// scheduler. It carries the best member's epochs, fails over at the silent one's deadline
/// with no epoch twice and no gap, opens its members only while it is watched, and forwards
/// the members' disagreement.
@Suite("Merged monitor", .mayBlock)
struct MergedMonitorTests {
    /// A member fed by hand, counting how often it is opened and closed.
    final class Member: Sendable {
        let feed = Subject<GPSEvent, GPSError>()
        let counts = Counts()
        let monitor: GPSMonitor

        final class Counts: Sendable {
            let value = Protected((opened: 0, closed: 0))
        }

        var opened: Int { counts.value.withLock { $0.opened } }
        var closed: Int { counts.value.withLock { $0.closed } }

        /// `failingFirst`: how many openings fail at once, as a missing device's does.
        init(_ name: String, failingFirst: Int = 0) {
            let feed = self.feed, counts = self.counts
            let reading = Signal<GPSEvent, GPSError> { observer in
                let opening = counts.value.withLock { counts in
                    counts.opened += 1
                    return counts.opened
                }
                if opening <= failingFirst {
                    observer.failed(.noSuchDevice(path: name))
                    return BlockDisposable { counts.value.withLock { $0.closed += 1 } }
                }
                let subscription = feed.signal.observe(observer)
                return BlockDisposable {
                    counts.value.withLock { $0.closed += 1 }
                    subscription.dispose()
                }
            }
            monitor = GPSMonitor(source: .serial(path: name, speed: .bitsPerSecond(9600)), delivery: nil,
                                 opening: .onFirstSubscriber, linger: .zero, connection: MonitorConnection(),
                                 reading: reading)
        }

        func send(_ fix: Fix) { feed.on(.next(.epoch(Epoch(sky: nil, fix: fix)))) }
    }

    /// What the merged monitor sent: each epoch's second and the member it came from (the
    /// last source change before it).
    final class Record: Sendable {
        let entries = Protected<[(second: Int, source: String)]>([])
        let changes = Protected<[SourceChange]>([])
        let integrity = Protected<[IntegrityEvent]>([])
        let current = Protected<String?>(nil)

        func take(_ event: GPSEvent) {
            switch event {
            case .sourceChanged(let change):
                changes.withLock { $0.append(change) }
                current.withLock { $0 = change.to }
            case .integrity(let event): integrity.withLock { $0.append(event) }
            case .epoch(let epoch):
                guard let time = epoch.fix?.time else { return }
                let second = Int(time.seconds(since: BestFixSelectionTests.fix(0).time!))
                let source = current.withLock { $0 } ?? "?"
                entries.withLock { $0.append((second, source)) }
            default: break
            }
        }
    }

    @Test("Fails over at the deadline of a member gone silent, with no epoch twice and no gap; back after the hold; members open only while watched")
    func failover() {
        let scheduler = TestScheduler()
        let a = Member("/dev/a"), b = Member("/dev/b")
        let merged = GPSMonitor(merging: [a.monitor, b.monitor], scheduler: scheduler)
        #expect(merged.source.description == "best:")
        #expect(a.opened == 0)
        let record = Record()
        let subscription = merged.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false).observe { event in
            if case .next(let event) = event { record.take(event) }
        }
        #expect(a.opened == 1 && b.opened == 1)
        func at(_ seconds: Double, _ member: Member, _ second: Int) {
            scheduler.advance(to: .milliseconds(Int64(seconds * 1000)))
            member.send(BestFixSelectionTests.fix(second))
            scheduler.advance()
        }
        // a (preferred) and b each second; a falls silent after second 4 (SIGSTOP), and is
        // back from second 9.
        for second in 0...12 {
            if second <= 4 || second >= 9 { at(Double(second) + 0.1, a, second) }
            at(Double(second) + 0.2, b, second)
        }
        scheduler.advance(to: .seconds(13))
        let entries = record.entries.withLock { $0 }
        #expect(entries.map(\.second) == Array(0...12))
        // a's deadline was 4.1 + 1.5 s: b's fix of second 5 (sent at 5.2) went out at 5.6.
        #expect(entries.map(\.source) == Array(repeating: "/dev/a", count: 5) + Array(repeating: "/dev/b", count: 6)
            + Array(repeating: "/dev/a", count: 2))
        let changes = record.changes.withLock { $0 }
        #expect(changes.map(\.reason) == [.first, .silent, .better(FixClass(BestFixSelectionTests.fix(0)))])
        subscription.dispose()
        #expect(a.closed == 1 && b.closed == 1)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("A member that floods faster than the merge runs holds at most the hand-off's capacity: the rest is dropped, counted, and the newest epochs go on")
    func floodIsBounded() {
        let scheduler = TestScheduler()
        let a = Member("/dev/a"), b = Member("/dev/b")
        let merged = GPSMonitor(merging: [a.monitor, b.monitor], scheduler: scheduler)
        let record = Record()
        let subscription = merged.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false).observe { event in
            if case .next(let event) = event { record.take(event) }
        }
        // 100,000 epochs while the scheduler never runs: a flood on a network member.
        for second in 0..<100_000 { a.send(BestFixSelectionTests.fix(second)) }
        // One drain waits for the scheduler: nothing more than that is queued behind it.
        #expect(scheduler.pendingCount == 1)
        #expect(merged.dropped.count == 100_000 - GPSMonitor.handOffCapacity)
        scheduler.advance()
        // What was kept is the newest, in order.
        let seconds = record.entries.withLock { $0.map(\.second) }
        #expect(seconds == Array(100_000 - GPSMonitor.handOffCapacity..<100_000))
        subscription.dispose()
    }

    @Test("A member that fails is silent to the choice and subscribed to again after the retry interval")
    func memberFailure() {
        let scheduler = TestScheduler()
        let a = Member("/dev/a"), b = Member("/dev/b")
        let merged = GPSMonitor(merging: [a.monitor, b.monitor], retryInterval: .seconds(2), scheduler: scheduler)
        let record = Record()
        let subscription = merged.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false).observe { event in
            if case .next(let event) = event { record.take(event) }
        }
        scheduler.advance(to: .milliseconds(100))
        a.send(BestFixSelectionTests.fix(0))
        b.send(BestFixSelectionTests.fix(0))
        scheduler.advance(to: .milliseconds(500))
        a.feed.on(.failed(.deviceLost(path: "/dev/a", errno: nil)))
        scheduler.advance(to: .milliseconds(1200))
        b.send(BestFixSelectionTests.fix(1))
        scheduler.advance(to: .milliseconds(1700))
        #expect(record.entries.withLock { $0.map(\.source) } == ["/dev/a", "/dev/b"])
        #expect(a.opened == 1)
        scheduler.advance(to: .milliseconds(2600))
        #expect(a.opened == 2)
        subscription.dispose()
    }

    /// Runs work at once (as a device's events can come before `observe` returns, on another
    /// thread) and its delays on a virtual clock.
    struct PromptScheduler: Scheduler {
        let clock = TestScheduler()
        var now: Duration { clock.now }
        @discardableResult
        func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
            action()
            return SimpleDisposable(disposed: true)
        }
        @discardableResult
        func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
            clock.schedule(after: delay, action)
        }
    }

    @Test("A member whose opening fails at once, before its subscription is even made, is tried again all the same")
    func immediateFailure() {
        let scheduler = PromptScheduler()
        let a = Member("/dev/a", failingFirst: 1), b = Member("/dev/b")
        let merged = GPSMonitor(merging: [a.monitor, b.monitor], retryInterval: .seconds(1), scheduler: scheduler)
        let record = Record()
        let subscription = merged.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false).observe { event in
            if case .next(let event) = event { record.take(event) }
        }
        #expect(a.opened == 1 && b.opened == 1)
        scheduler.clock.advance(by: .seconds(1))
        #expect(a.opened == 2, "tried again after the failure")
        a.send(BestFixSelectionTests.fix(0))
        #expect(record.entries.withLock { $0.map(\.source) } == ["/dev/a"], "and followed")
        subscription.dispose()
        #expect(a.closed == 2 && b.closed == 1)
    }

    @Test("Two members farther apart than their errors allow: the disagreement is an event of the merged stream, and flags the fix")
    func disagreement() {
        let scheduler = TestScheduler()
        let a = Member("/dev/a"), b = Member("/dev/b")
        let merged = GPSMonitor(merging: [a.monitor, b.monitor], names: ["mast", "ais"], scheduler: scheduler)
        let record = Record()
        let flags = Protected<[IntegrityFlags]>([])
        let subscription = merged.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false).observe { event in
            if case .next(let event) = event {
                record.take(event)
                if let fix = event.fix { flags.withLock { $0.append(fix.integrity) } }
            }
        }
        for second in 0...3 {
            scheduler.advance(to: .milliseconds(Int64(second) * 1000 + 100))
            b.send(BestFixSelectionTests.fix(second))
            var fix = BestFixSelectionTests.fix(second)
            if second >= 2 { fix.latitude! += 0.001 }    // 111 m north
            a.send(fix)
            scheduler.advance()
        }
        let events = record.integrity.withLock { $0 }
        #expect(events.map(\.kind) == [.disagreement])
        #expect(events.first?.source == "mast")
        // b came first; a, preferred, took over at its third fix as good (second 2, already
        // sent from b, so not again), and its fix of second 3 carries the flag.
        #expect(record.entries.withLock { $0.map(\.source) } == ["ais", "ais", "ais", "mast"])
        #expect(flags.withLock { $0 } == [[], [], [], IntegrityFlags(.disagreement)])
        subscription.dispose()
    }
}
