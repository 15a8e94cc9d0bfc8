import Testing
@testable import NMEAStream
import TestSupport

/// The watchdog's rules for a silent source, without a clock: times are given.
@Suite("Stale watch", .mayBlock)
struct StaleWatchTests {
    private let second: UInt64 = 1_000_000_000

    @Test("never: no deadline, nothing to check")
    func never() {
        var watch = StaleWatch(limit: .never)
        #expect(watch.arm(at: 5 * second, fixes: 0) == nil)
        #expect(watch.check(at: 100 * second, fixes: 0) == .idle)
    }

    @Test("a limit given: heard within it, checked again at the last bytes plus the limit; silent past it, with the silence")
    func givenLimit() {
        var watch = StaleWatch(limit: .after(.seconds(3)))
        #expect(watch.arm(at: 10 * second, fixes: 0) == 13 * second)
        watch.heard(at: 12 * second)
        #expect(watch.check(at: 13 * second, fixes: 0) == .checkAgain(at: 15 * second))
        #expect(watch.check(at: 15 * second, fixes: 0) == .silent(seconds: 3))
    }

    @Test("silence counts from the arming when nothing came")
    func nothingAtAll() {
        var watch = StaleWatch(limit: .after(.milliseconds(500)))
        _ = watch.arm(at: 2 * second, fixes: 0)
        #expect(watch.check(at: 2 * second + second / 2, fixes: 0) == .silent(seconds: 0.5))
    }

    @Test("automatic: 10 s until the cycle is measured; then five cycles (1 Hz: 5 s); never under 2 s (10 Hz)")
    func automatic() {
        var watch = StaleWatch(limit: .automatic)
        #expect(watch.arm(at: 0, fixes: 0) == 10 * second)
        watch.heard(at: 10 * second)
        // Ten fixes in the ten seconds: a cycle of 1 s.
        #expect(watch.check(at: 10 * second, fixes: 10) == .checkAgain(at: 15 * second))
        #expect(watch.cycle == 1)
        #expect(watch.allowance == 5)
        var fast = StaleWatch(limit: .automatic)
        _ = fast.arm(at: 0, fixes: 0)
        fast.heard(at: 10 * second)
        #expect(fast.check(at: 10 * second, fixes: 100) == .checkAgain(at: 12 * second))
        #expect(fast.allowance == 2)
        // A slow receiver (one fix in ten seconds): five of its cycles, 50 s.
        var slow = StaleWatch(limit: .automatic)
        _ = slow.arm(at: 0, fixes: 0)
        slow.heard(at: 9 * second)
        #expect(slow.check(at: 10 * second, fixes: 0) == .checkAgain(at: 19 * second))
        slow.heard(at: 19 * second)
        #expect(slow.check(at: 19 * second, fixes: 0) == .checkAgain(at: 29 * second))
        slow.heard(at: 20 * second)
        #expect(slow.check(at: 29 * second, fixes: 1) == .checkAgain(at: 20 * second + 50 * second))
    }

    @Test("a check without fixes keeps the cycle measured before; disarmed, nothing to check until armed again")
    func disarm() {
        var watch = StaleWatch(limit: .automatic)
        _ = watch.arm(at: 0, fixes: 0)
        watch.heard(at: 10 * second)
        _ = watch.check(at: 10 * second, fixes: 10)
        watch.heard(at: 14 * second)
        #expect(watch.check(at: 15 * second, fixes: 10) == .checkAgain(at: 19 * second))
        #expect(watch.cycle == 1)
        watch.disarm()
        #expect(watch.check(at: 100 * second, fixes: 10) == .idle)
        #expect(watch.arm(at: 100 * second, fixes: 10) == 105 * second)
    }
}
