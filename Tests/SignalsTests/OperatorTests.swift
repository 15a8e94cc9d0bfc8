import Testing
import Signals
import Platform
import TestSupport

@Suite("Operators", .mayBlock)
struct OperatorTests {
    @Test("map, replaceElements(with:), compactMap and filter transform values and pass terminal events")
    func transforms() {
        let source = Signal<Int, TestError>.from([1, 2, 3, 4])
        let mapped = Recorder<Int, TestError>()
        _ = mapped.observe(source.map { $0 * 10 })
        #expect(mapped.values == [10, 20, 30, 40])
        #expect(mapped.isCompleted)
        let replaced = Recorder<String, TestError>()
        _ = replaced.observe(source.replaceElements(with: "x"))
        #expect(replaced.values == ["x", "x", "x", "x"])
        let compact = Recorder<Int, TestError>()
        _ = compact.observe(source.compactMap { $0 % 2 == 0 ? $0 : nil })
        #expect(compact.values == [2, 4])
        let filtered = Recorder<Int, TestError>()
        _ = filtered.observe(Signal<Int, TestError>.failed(TestError()).filter { _ in true })
        #expect(filtered.terminalCount == 1)
    }

    @Test("take completes after n values and releases the upstream; skip drops the first n")
    func takeAndSkip() {
        let probe = UpstreamProbe()
        let source = probe.signal { (observer: Observer<Int, Never>) in
            for value in 1...10 { observer.next(value) }
        }
        let taken = Recorder<Int, Never>()
        _ = taken.observe(source.take(3))
        #expect(taken.values == [1, 2, 3])
        #expect(taken.isCompleted)
        #expect(probe.open == 0)
        let skipped = Recorder<Int, Never>()
        _ = skipped.observe(Signal<Int, Never>.from(1...5).skip(3))
        #expect(skipped.values == [4, 5])
    }

    @Test("just, empty, never, fail and deferred")
    func constructors() {
        let just = Recorder<Int, Never>()
        _ = just.observe(.just(1, 2))
        #expect(just.values == [1, 2] && just.isCompleted)
        let empty = Recorder<Int, Never>()
        _ = empty.observe(.empty)
        #expect(empty.events.count == 1 && empty.isCompleted)
        let never = Recorder<Int, Never>()
        let subscription = never.observe(.never)
        #expect(never.events.isEmpty)
        subscription.dispose()
        let made = Protected(0)
        let deferred = Signal<Int, Never>.deferred {
            made.withLock { $0 += 1 }
            return .just(made.withLock { $0 })
        }
        #expect(made.withLock { $0 } == 0)
        let first = Recorder<Int, Never>()
        _ = first.observe(deferred)
        let second = Recorder<Int, Never>()
        _ = second.observe(deferred)
        #expect(first.values == [1] && second.values == [2])
    }
}
