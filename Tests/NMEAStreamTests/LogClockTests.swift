import Testing
@testable import NMEAStream
import TestSupport

/// The paced replay's clock, without waiting: when each of a log's times is due.
@Suite("Log clock", .mayBlock)
struct LogClockTests {
    /// The due times of `times` at ×`speed`, each asked at wall time `now` (the replay sends a
    /// unit when it is due, so the clock is asked again no earlier than that).
    func dues(_ times: [Double], speed: Double = 10, keepingGaps: Bool = false) -> [Double] {
        var clock = LogClock(speed: speed, keepingGaps: keepingGaps)
        var now = 1_000.0
        return times.map { time in
            now = clock.due(time, now: now)
            return ((now - 1_000) * 1_000).rounded() / 1_000
        }
    }

    @Test("each time is due its log interval later, sped up")
    func steady() {
        #expect(dues([100, 101, 102.5]) == [0, 0.1, 0.25])
    }

    @Test("a time up to two seconds back is a late report, due at once; the times after it keep their pace")
    func lateReport() {
        // HNR-PVT at 10 Hz, and the navigation epoch of 5.0 after the one of 5.3.
        #expect(dues([5.0, 5.1, 5.2, 5.3, 5.0, 5.4, 6.0]) == [0, 0.01, 0.02, 0.03, 0.03, 0.04, 0.1])
        // A ZDA stamped a second before its cycle's fixes.
        #expect(dues([10, 11, 10, 12, 11, 13]) == [0, 0.1, 0.1, 0.2, 0.2, 0.3])
    }

    @Test("a time further back, or more than a minute ahead, starts the pacing over; midnight is one second")
    func restarts() {
        #expect(dues([100, 101, 97, 98]) == [0, 0.1, 0.1, 0.2])
        #expect(dues([100, 101, 200, 201]) == [0, 0.1, 0.1, 0.2])
        #expect(dues([86_399, 0, 1]) == [0, 0.1, 0.2])
    }

    @Test("a pause of more than five seconds is shortened to one cycle, or kept")
    func pauses() {
        #expect(dues([100, 102, 132, 134]) == [0, 0.2, 0.4, 0.6])
        #expect(dues([100, 102, 132, 134], keepingGaps: true) == [0, 0.2, 3.2, 3.4])
    }
}
