import Testing
import Signals
import Platform
import TestSupport

@Suite("Locks", .mayBlock)
struct LockTests {
    @Test("a recursive lock nests on its holder and is free only after the last unlock")
    func recursive() {
        let lock = Lock(recursive: true)
        lock.lock()
        lock.lock()
        #expect(lock.tryLock())
        let fromOtherThread = Protected<[Bool]>([])
        lock.unlock()
        lock.unlock()
        onThreads(1) { _ in
            let taken = lock.tryLock()
            if taken { lock.unlock() }
            fromOtherThread.withLock { $0.append(taken) }
        }
        lock.unlock()
        onThreads(1) { _ in
            let taken = lock.tryLock()
            if taken { lock.unlock() }
            fromOtherThread.withLock { $0.append(taken) }
        }
        #expect(fromOtherThread.withLock { $0 } == [false, true])
    }

    @Test("locks exclude each other across threads, nested or not", arguments: [false, true])
    func exclusion(recursive: Bool) {
        final class Tally: @unchecked Sendable { var count = 0 }
        let lock = Lock(recursive: recursive)
        let tally = Tally()
        onThreads(8) { _ in
            for _ in 0..<20_000 {
                lock.lock()
                if recursive { lock.lock() }
                let seen = tally.count
                tally.count = seen + 1
                if recursive { lock.unlock() }
                lock.unlock()
            }
        }
        #expect(tally.count == 8 * 20_000)
    }
}
