import Testing
@testable import NMEA
import TestSupport

@Suite("Cycle tracker", .mayBlock)
struct CycleTrackerTests {
    private let gga = CycleTracker.Kind(GGA.self)
    private let rmc = CycleTracker.Kind(RMC.self)
    private let gsa = CycleTracker.Kind(GSA.self)
    private let vtg = CycleTracker.Kind(VTG.self)
    private let t1 = TimeOfDay(hour: 12, minute: 0, second: 1)!
    private let t2 = TimeOfDay(hour: 12, minute: 0, second: 2)!
    private let t3 = TimeOfDay(hour: 12, minute: 0, second: 3)!

    private var merge: CycleTracker.Step { CycleTracker.Step() }

    @Test("a new time delivers the epoch in progress and learns the cycle's last sentence as its end")
    func timeChange() {
        var tracker = CycleTracker()
        #expect(tracker.arrive(gga, time: t1) == merge)
        #expect(tracker.arrive(gsa, time: nil) == merge)
        #expect(tracker.arrive(rmc, time: t1) == merge)
        #expect(tracker.cycleEnd == nil)
        #expect(tracker.arrive(gga, time: t2) == CycleTracker.Step(deliverFirst: true, startEpoch: true))
        #expect(tracker.cycleEnd == CycleTracker.Position(kind: rmc, occurrence: 1))
        #expect(tracker.arrive(gsa, time: nil) == merge)
        // The learned end ends the epoch at once.
        #expect(tracker.arrive(rmc, time: t2) == CycleTracker.Step(deliverAfter: true))
        #expect(!tracker.hasData)
    }

    @Test("after an early end, sentences with no time are held, then go into the next epoch")
    func heldForNextEpoch() {
        var tracker = learned()
        #expect(tracker.arrive(rmc, time: t2) == CycleTracker.Step(deliverAfter: true))
        #expect(tracker.arrive(gsa, time: nil) == CycleTracker.Step(hold: true))
        #expect(tracker.arrive(gga, time: t3) == CycleTracker.Step(startEpoch: true, releaseHeld: true))
        #expect(tracker.epochTime == t3)
        #expect(tracker.cycleEnd == CycleTracker.Position(kind: rmc, occurrence: 1))
    }

    @Test("a sentence with the ended epoch's time: the learned end was wrong, forgotten, and the epoch goes on")
    func wrongEnd() {
        var tracker = learned()
        #expect(tracker.arrive(rmc, time: t2) == CycleTracker.Step(deliverAfter: true))
        #expect(tracker.arrive(vtg, time: nil) == CycleTracker.Step(hold: true))
        #expect(tracker.arrive(gga, time: t2) == CycleTracker.Step(releaseHeld: true))
        #expect(tracker.cycleEnd == nil)
        #expect(tracker.hasData)
        // Delivered again, revised, when the time changes; the new end is learned then: the
        // epoch's second GGA.
        #expect(tracker.arrive(gga, time: t3) == CycleTracker.Step(deliverFirst: true, startEpoch: true))
        #expect(tracker.cycleEnd == CycleTracker.Position(kind: gga, occurrence: 2))
    }

    @Test("the end is learned with how many of its kind a cycle has (one GSA per constellation)")
    func occurrences() {
        var tracker = CycleTracker()
        _ = tracker.arrive(gga, time: t1)
        for _ in 0..<4 { _ = tracker.arrive(gsa, time: nil) }
        _ = tracker.arrive(gga, time: t2)
        #expect(tracker.cycleEnd == CycleTracker.Position(kind: gsa, occurrence: 4))
        for _ in 0..<3 { #expect(tracker.arrive(gsa, time: nil) == merge) }
        #expect(tracker.arrive(gsa, time: nil) == CycleTracker.Step(deliverAfter: true))
    }

    @Test("held sentences that end the way a cycle ends are a cycle of their own (a receiver with no clock)")
    func heldCycle() {
        var tracker = CycleTracker()
        _ = tracker.arrive(gga, time: t1)
        _ = tracker.arrive(gsa, time: nil)
        _ = tracker.arrive(gga, time: t2)
        #expect(tracker.cycleEnd == CycleTracker.Position(kind: gsa, occurrence: 1))
        #expect(tracker.arrive(gsa, time: nil) == CycleTracker.Step(deliverAfter: true))
        #expect(tracker.arrive(vtg, time: nil) == CycleTracker.Step(hold: true))
        #expect(tracker.arrive(gsa, time: nil)
            == CycleTracker.Step(hold: true, startEpoch: true, releaseHeld: true, deliverAfter: true))
    }

    @Test("held sentences that pile up are a cycle of their own")
    func heldPileUp() {
        var tracker = learned()
        #expect(tracker.arrive(rmc, time: t2) == CycleTracker.Step(deliverAfter: true))
        for _ in 1..<CycleTracker.maximumHeld { #expect(tracker.arrive(vtg, time: nil) == CycleTracker.Step(hold: true)) }
        #expect(tracker.arrive(vtg, time: nil)
            == CycleTracker.Step(hold: true, startEpoch: true, releaseHeld: true, deliverAfter: true))
    }

    @Test("after a quiet, sentences without a time are held up to the bound, then go into the epoch in progress: a flood of them holds no more")
    func quietHeldBound() {
        var tracker = CycleTracker()
        _ = tracker.arrive(gga, time: t1)
        #expect(tracker.quiet() == merge)
        for _ in 0..<CycleTracker.maximumHeld { #expect(tracker.arrive(vtg, time: nil) == CycleTracker.Step(hold: true)) }
        #expect(tracker.arrive(vtg, time: nil) == CycleTracker.Step(releaseHeld: true))
        for _ in 0..<1_000 { #expect(tracker.arrive(vtg, time: nil) == merge) }
        #expect(tracker.epochTime == t1)
        // The next quiet holds again, and a new time makes what it held the next cycle's head.
        #expect(tracker.quiet() == merge)
        #expect(tracker.arrive(vtg, time: nil) == CycleTracker.Step(hold: true))
        #expect(tracker.arrive(gga, time: t2) == CycleTracker.Step(deliverFirst: true, startEpoch: true, releaseHeld: true))
    }

    @Test("with no time at all, the epoch's first kind coming round again starts a new epoch")
    func noTime() {
        var tracker = CycleTracker()
        #expect(tracker.arrive(gsa, time: nil) == merge)
        #expect(tracker.arrive(vtg, time: nil) == merge)
        #expect(tracker.arrive(gsa, time: nil) == CycleTracker.Step(deliverFirst: true, startEpoch: true))
        #expect(tracker.cycleEnd == nil)
    }

    @Test("the end of input delivers the epoch in progress, and held sentences as an epoch of their own")
    func finish() {
        var tracker = CycleTracker()
        #expect(tracker.finish() == CycleTracker.Finish(startEpoch: true))
        _ = tracker.arrive(gga, time: t1)
        #expect(tracker.finish() == CycleTracker.Finish(deliver: true, startEpoch: true))

        var ended = learned()
        _ = ended.arrive(rmc, time: t2)
        #expect(ended.finish() == CycleTracker.Finish(), "an early end with nothing held: all was delivered")

        var held = learned()
        _ = held.arrive(rmc, time: t2)
        _ = held.arrive(vtg, time: nil)
        #expect(held.finish() == CycleTracker.Finish(releaseHeld: true, deliver: true, startEpoch: true))
    }

    /// A tracker that has learned that a cycle ends with RMC, in the epoch of `t2`.
    private func learned() -> CycleTracker {
        var tracker = CycleTracker()
        _ = tracker.arrive(gga, time: t1)
        _ = tracker.arrive(rmc, time: t1)
        _ = tracker.arrive(gga, time: t2)
        return tracker
    }
}
