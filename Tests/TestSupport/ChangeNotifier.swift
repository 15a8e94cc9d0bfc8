import Dispatch
import Platform

/// What a test's recorder tells each time it records something, and what the test waits on:
/// a wait is woken by the change and asks its condition again, so nothing is asked on a clock.
public final class ChangeNotifier: @unchecked Sendable {
    private let lock = Lock()
    private let condition: Condition
    /// Counts the changes; guarded by `lock`.
    private var version = 0

    public init() { condition = Condition(lock) }

    /// Tells the waiters that the recorded state changed (call it after the change).
    public func changed() {
        lock.withLock {
            version += 1
            condition.broadcast()
        }
    }

    /// Waits until `condition` holds, asking it now and after each change, at most `seconds`:
    /// whether it held. The condition may read the recorder (and take its lock).
    public func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while true {
            // Read before the condition is asked, so that a change after it is not missed.
            let seen = lock.withLock { version }
            if condition() { return true }
            let timedOut = lock.withLock { () -> Bool in
                while version == seen {
                    let now = DispatchTime.now().uptimeNanoseconds
                    guard now < deadline else { return true }
                    _ = self.condition.wait(seconds: Double(deadline - now) / 1e9)
                }
                return false
            }
            if timedOut { return condition() }
        }
    }
}
