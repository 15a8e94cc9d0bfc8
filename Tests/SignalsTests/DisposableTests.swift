import Testing
import Signals
import Platform
import TestSupport

@Suite("Disposables", .mayBlock)
struct DisposableTests {
    @Test("an action disposable runs its action at most once, even from many threads")
    func actionOnce() {
        let runs = Protected(0)
        let disposable = BlockDisposable { runs.withLock { $0 += 1 } }
        onThreads(16) { _ in disposable.dispose() }
        #expect(runs.withLock { $0 } == 1)
        #expect(disposable.isDisposed)
    }

    @Test("a compound disposes its children, and disposes at once what is added afterwards")
    func compound() {
        let compound = CompositeDisposable()
        let first = SimpleDisposable()
        compound += first
        compound.dispose()
        #expect(first.isDisposed)
        let late = SimpleDisposable()
        compound += late
        #expect(late.isDisposed)
    }

    @Test("a compound racing with add: every child ends up disposed")
    func compoundRace() {
        for _ in 0..<50 {
            let compound = CompositeDisposable()
            let children = (0..<64).map { _ in SimpleDisposable() }
            onThreads(5) { thread in
                if thread == 4 { compound.dispose(); return }
                for child in children[(thread * 16)..<(thread * 16 + 16)] { compound.add(child) }
            }
            #expect(children.allSatisfy { $0.isDisposed })
        }
    }

    @Test("a child may dispose its compound again while being disposed")
    func reentrantCompound() {
        let compound = CompositeDisposable()
        let after = SimpleDisposable()
        compound.add { compound.dispose() }
        compound.add(after)
        compound.dispose()
        #expect(after.isDisposed)
    }

    @Test("a serial disposable disposes the inner one it replaces, and anything set after disposal")
    func serial() {
        let serial = SerialDisposable()
        let first = SimpleDisposable()
        let second = SimpleDisposable()
        serial.inner = first
        serial.inner = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        serial.dispose()
        #expect(second.isDisposed)
        let third = SimpleDisposable()
        serial.inner = third
        #expect(third.isDisposed)
    }

    @Test("a dispose bag disposes its contents when released")
    func bag() {
        let child = SimpleDisposable()
        do {
            let bag = DisposeBag()
            child.dispose(in: bag)
            #expect(!child.isDisposed)
        }
        #expect(child.isDisposed)
    }
}
