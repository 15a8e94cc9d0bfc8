import Testing
@testable import NMEAStream
import TestSupport

/// The merged source's choice among receivers, step by step on a made-up clock: the order
/// (fresh, class, error with a margin, preference), failover at once, takeover after a hold,
/// no flapping, and every fix sent once, in time order.
@Suite("Best fix selection", .mayBlock)
struct BestFixSelectionTests {
    /// A fix at second `second` of the day: 3D unless said, with an error estimate.
    static func fix(_ second: Int, mode: FixMode = .threeD, error: Double? = 5, status: FixQuality? = nil) -> Fix {
        var fix = Fix()
        fix.mode = mode
        fix.time = UTCTime(posixSeconds: 1_717_588_800 + Int64(second), nanoseconds: 0)
        fix.latitude = 52
        fix.longitude = 4
        fix.quality = status
        fix.errorEstimates.horizontal = error
        return fix
    }

    /// The seconds of the fixes sent, and the receivers they came from.
    static func emitted(_ actions: [BestFixSelection.Action]) -> [(Int64, Int)] {
        actions.compactMap { action in
            if case .emit(let fix, let receiver) = action { (fix.time!.posixTime.seconds - 1_717_588_800, receiver) } else { nil }
        }
    }

    static func switches(_ actions: [BestFixSelection.Action]) -> [BestFixSelection.SwitchReason] {
        actions.compactMap { if case .switched(_, _, let reason) = $0 { reason } else { nil } }
    }

    @Test("the first receiver with a fix is carried; the one the user prefers takes over once it has been as good for three fixes")
    func preferenceAfterHold() {
        var selection = BestFixSelection(receivers: 2)
        var actions = selection.take(Self.fix(0), from: 1, at: 0.1)
        #expect(Self.switches(actions) == [.first] && selection.current == 1)
        for second in 1...3 {
            actions += selection.take(Self.fix(second, error: 5.5), from: 0, at: Double(second) + 0.05)
            actions += selection.take(Self.fix(second), from: 1, at: Double(second) + 0.1)
        }
        #expect(selection.current == 0, "equal within the margin, and preferred: after three of its fixes")
        #expect(Self.switches(actions) == [.first, .better(FixClass(Self.fix(3)))])
        let seconds = Self.emitted(actions).map(\.0)
        #expect(seconds == seconds.sorted() && Set(seconds).count == seconds.count, "in time order, none twice: \(Self.emitted(actions))")
    }

    @Test("the receiver carried goes silent: the next tick after one and a half of its cycles switches to the other, which goes on without a gap")
    func silence() {
        var selection = BestFixSelection(receivers: 2)
        var actions: [BestFixSelection.Action] = []
        for second in 0...4 {
            actions += selection.take(Self.fix(second), from: 0, at: Double(second))
            actions += selection.take(Self.fix(second), from: 1, at: Double(second) + 0.3)
        }
        #expect(selection.current == 0)
        // Receiver 0 stops after second 4; receiver 1 goes on.
        #expect(selection.deadline() == 4 + 1.5)
        actions += selection.take(Self.fix(5), from: 1, at: 5.3)
        #expect(selection.tick(at: 5.4).isEmpty, "not yet silent")
        let failover = selection.tick(at: 5.5)
        #expect(Self.switches(failover) == [.silent] && selection.current == 1)
        #expect(Self.emitted(failover).map(\.0) == [5], "the other's fix of the second missed, at once")
        actions += failover + selection.take(Self.fix(6), from: 1, at: 6.3)
        #expect(Self.emitted(actions).map(\.0) == [0, 1, 2, 3, 4, 5, 6], "every second once, no gap")
    }

    @Test("the receiver carried loses its fix, or falls from 3D to 2D below another: switched on that fix")
    func degradation() {
        for lost in [FixMode.noFix, .twoD] {
            var selection = BestFixSelection(receivers: 2)
            for second in 0...2 {
                _ = selection.take(Self.fix(second), from: 0, at: Double(second))
                _ = selection.take(Self.fix(second), from: 1, at: Double(second) + 0.2)
            }
            let actions = selection.take(Self.fix(3, mode: lost), from: 0, at: 3)
            #expect(selection.current == 1, "\(lost)")
            #expect(Self.switches(actions) == [.degraded(FixClass(Self.fix(3, mode: lost)))])
            #expect(Self.emitted(actions).isEmpty, "the other's latest is of second 2, already sent")
            #expect(Self.emitted(selection.take(Self.fix(3), from: 1, at: 3.2)).map(\.0) == [3])
        }
    }

    @Test("RTK fixed beats an autonomous fix, after the hold; errors that wander within the margin never flap")
    func classAndNoFlapping() {
        var rtk = BestFixSelection(receivers: 2)
        var actions: [BestFixSelection.Action] = []
        for second in 0...5 {
            actions += rtk.take(Self.fix(second, error: 3), from: 0, at: Double(second))
            actions += rtk.take(Self.fix(second, error: 0.02, status: .rtkFixed), from: 1, at: Double(second) + 0.1)
        }
        #expect(rtk.current == 1 && Self.switches(actions).count == 2)

        var steady = BestFixSelection(receivers: 2)
        var switched: [BestFixSelection.SwitchReason] = []
        for second in 0..<60 {
            // Receiver 1's error wanders 20% either side of receiver 0's.
            switched += Self.switches(steady.take(Self.fix(second, error: 5), from: 0, at: Double(second)))
            switched += Self.switches(steady.take(Self.fix(second, error: second % 2 == 0 ? 4.1 : 5.9), from: 1, at: Double(second) + 0.1))
        }
        #expect(switched == [.first] && steady.current == 0)
    }

    @Test("no receiver with a fix: nothing is carried; a receiver's fix that is not after the last one sent is not sent")
    func nothingAndOrder() {
        var selection = BestFixSelection(receivers: 2)
        #expect(selection.take(Self.fix(0, mode: .noFix), from: 0, at: 0).isEmpty)
        #expect(selection.current == nil && selection.deadline() == nil && selection.tick(at: 10).isEmpty)
        _ = selection.take(Self.fix(5), from: 0, at: 1)
        #expect(Self.emitted(selection.take(Self.fix(4), from: 0, at: 2)).isEmpty, "back in time: not sent")
    }
}

@Suite("Best fix selection and integrity", .mayBlock)
struct BestFixIntegrityTests {
    @Test("A fix that failed an integrity check ranks below a trusted one, above none; a disagreement alone does not count")
    func trust() {
        var suspect = BestFixSelectionTests.fix(0, status: .rtkFixed)
        suspect.integrity = IntegrityFlags(.positionJump)
        var disagreeing = BestFixSelectionTests.fix(0)
        disagreeing.integrity = IntegrityFlags(.disagreement)
        #expect(FixClass(suspect) < FixClass(BestFixSelectionTests.fix(0, mode: .twoD)))
        #expect(FixClass(suspect) > FixClass(BestFixSelectionTests.fix(0, mode: .noFix)))
        #expect(FixClass(disagreeing) == FixClass(BestFixSelectionTests.fix(0)))
        #expect(FixClass(suspect).description == "3D RTK fixed (suspect)")
    }

    @Test("The receiver carried fails over at once when its fix fails a check, and comes back after the hold")
    func failoverOnSuspect() {
        var selection = BestFixSelection(receivers: 2)
        _ = selection.take(BestFixSelectionTests.fix(0), from: 0, at: 0.1)
        _ = selection.take(BestFixSelectionTests.fix(0), from: 1, at: 0.2)
        #expect(selection.current == 0)
        var jumped = BestFixSelectionTests.fix(1)
        jumped.integrity = IntegrityFlags(.positionJump)
        let actions = selection.take(jumped, from: 0, at: 1.1)
        #expect(selection.current == 1)
        #expect(actions.first == .switched(from: 0, to: 1, reason: .degraded(FixClass(jumped))))
        _ = selection.take(BestFixSelectionTests.fix(1), from: 1, at: 1.2)
        for second in 2...4 {
            _ = selection.take(BestFixSelectionTests.fix(second), from: 0, at: Double(second) + 0.1)
            #expect(selection.current == (second < 4 ? 1 : 0))
            _ = selection.take(BestFixSelectionTests.fix(second), from: 1, at: Double(second) + 0.2)
        }
    }
}
