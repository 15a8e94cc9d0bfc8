/// Which of several receivers' fixes a merged source carries: a pure state machine, told each
/// receiver's fixes and the passing of time, that answers with what to emit. No I/O, no
/// clock of its own, so every rule is tested step by step.
///
/// The receiver carried is the best one by this order:
/// 1. a fresh receiver over a silent one: fresh means a fix less than ``staleCycles`` of its own
///    cycles ago (the time between its last two fixes, by their times, else by their
///    arrival; ``defaultCycle`` before it has two);
/// 2. a better ``FixClass``: a valid fix over none, one that passed its integrity checks over
///    one that failed them, RTK fixed over float over DGPS over autonomous, 3D over 2D;
/// 3. a smaller horizontal error (the error estimate, else the HDOP), by more than
///    ``errorMargin``;
/// 4. the user's preference: a receiver earlier in the list.
///
/// It switches at once, on the fix or the tick that shows it, when the receiver carried goes
/// silent, loses its fix, or falls to a lower class than another fresh receiver: so within one
/// of the slower receiver's cycles. A receiver that is merely better (a higher class, a
/// smaller error, the user's preference once it is back) takes over only after it has been
/// better for ``holdFixes`` fixes of its own in a row: two receivers of one class, whose errors
/// wander about each other, do not flap.
///
/// Fixes go out in time order, none twice: a fix whose time is not after the last one sent is
/// not sent (after a switch, the new receiver's fix of a second already sent).
public struct BestFixSelection: Sendable {
    /// What to do.
    public enum Action: Sendable, Equatable {
        /// Carry this fix of receiver `receiver` (its index in the list).
        case emit(Fix, receiver: Int)
        /// The receiver carried changed, for this reason.
        case switched(from: Int?, to: Int, reason: SwitchReason)
    }

    /// Why the receiver carried changed.
    public enum SwitchReason: Sendable, Hashable, CustomStringConvertible {
        /// The first receiver with a fix.
        case first
        /// The one carried sent nothing for its allowance.
        case silent
        /// The one carried lost its fix, or fell below another's class.
        case degraded(FixClass)
        /// Another was better for ``BestFixSelection/holdFixes`` fixes in a row.
        case better(FixClass)

        public var description: String {
            switch self {
            case .first: "the first with a fix"
            case .silent: "the one carried went silent"
            case .degraded(let fixClass): "the one carried fell to \(fixClass)"
            case .better(let fixClass): "a better one (\(fixClass))"
            }
        }
    }

    /// How many of its own cycles a receiver may send nothing before it counts as silent.
    public var staleCycles: Double = 1.5
    /// A receiver's cycle before it has sent two fixes, seconds.
    public var defaultCycle: Double = 1
    /// How much smaller, as a fraction, a receiver's error must be to count as better (and
    /// how much larger it may be for the user's preference to count).
    public var errorMargin: Double = 0.25
    /// How many fixes in a row a receiver that is merely better must be better before it
    /// takes over.
    public var holdFixes = 3

    private var members: [Member]
    /// The receiver carried.
    public private(set) var current: Int?
    private var lastSent: UTCTime?

    private struct Member {
        var latest: Fix?
        /// System time of the latest fix, and of the one before (uptime seconds).
        var heardAt: Double?
        var cycle: Double?
        /// How many of its fixes in a row beat the one carried.
        var betterInARow = 0
    }

    /// How many receivers it chooses among.
    public var receiverCount: Int { members.count }

    /// A selection among `receivers` receivers, listed in the user's preference order.
    public init(receivers: Int) {
        members = Array(repeating: Member(), count: receivers)
    }

    /// Receiver `receiver` completed `fix` at time `now` (seconds on a monotonic clock).
    public mutating func take(_ fix: Fix, from receiver: Int, at now: Double) -> [Action] {
        guard members.indices.contains(receiver) else { return [] }
        let previousClass = members[receiver].latest.map(FixClass.init)
        // Its cycle: by the receiver's own times where it gives them (a burst of fixes held up
        // on the way is not a fast receiver), else by their arrival.
        if let time = fix.time, let before = members[receiver].latest?.time, time > before {
            members[receiver].cycle = min(time.seconds(since: before), 60)
        } else if let heard = members[receiver].heardAt, now > heard {
            members[receiver].cycle = now - heard
        }
        members[receiver].heardAt = now
        members[receiver].latest = fix
        var actions: [Action] = []
        if let current {
            if receiver == current {
                // The one carried: gone below another fresh receiver's class, or lost its fix?
                let nowClass = FixClass(fix)
                if let best = best(at: now), best != current,
                   !nowClass.isValid || (previousClass.map { nowClass < $0 } ?? false) && beats(best, current) {
                    actions += switchTo(best, reason: .degraded(nowClass), at: now)
                    return actions
                }
                for index in members.indices where index != current {
                    if !isFresh(index, at: now) { members[index].betterInARow = 0 }
                }
            } else if isFresh(current, at: now), members[current].latest.map({ FixClass($0).isValid }) ?? false {
                if beats(receiver, current) {
                    members[receiver].betterInARow += 1
                    if members[receiver].betterInARow >= holdFixes {
                        actions += switchTo(receiver, reason: .better(FixClass(fix)), at: now)
                        return actions
                    }
                } else {
                    members[receiver].betterInARow = 0
                }
            } else if FixClass(fix).isValid {
                // The one carried is silent or has no fix: the best fresh one now.
                if let best = best(at: now), best != current {
                    let reason: SwitchReason = isFresh(current, at: now) ? .degraded(members[current].latest.map(FixClass.init) ?? FixClass(Fix())) : .silent
                    actions += switchTo(best, reason: reason, at: now)
                    return actions
                }
            }
        } else if FixClass(fix).isValid, let best = best(at: now) {
            actions += switchTo(best, reason: .first, at: now)
            return actions
        }
        if receiver == current { actions += send(fix, from: receiver) }
        return actions
    }

    /// Time passed to `now` with no fix: the receiver carried may have gone silent.
    public mutating func tick(at now: Double) -> [Action] {
        guard let current, !isFresh(current, at: now), let best = best(at: now), best != current,
              isFresh(best, at: now) else { return [] }
        return switchTo(best, reason: .silent, at: now)
    }

    /// When the receiver carried counts as silent if nothing comes (uptime seconds); `nil`
    /// when none is carried: the time to tick at.
    public func deadline() -> Double? {
        guard let current, let heard = members[current].heardAt else { return nil }
        return heard + staleCycles * (members[current].cycle ?? defaultCycle)
    }

    // MARK: Ranking

    private func isFresh(_ index: Int, at now: Double) -> Bool {
        guard let heard = members[index].heardAt else { return false }
        return now - heard < staleCycles * (members[index].cycle ?? defaultCycle)
    }

    /// Whether receiver `a` is better than `b` by the order (class, error with the margin,
    /// preference), both taken as they last reported.
    private func beats(_ a: Int, _ b: Int) -> Bool {
        guard let fixA = members[a].latest else { return false }
        guard let fixB = members[b].latest else { return true }
        let classA = FixClass(fixA), classB = FixClass(fixB)
        if classA != classB { return classA > classB }
        switch (fixA.rankingError, fixB.rankingError) {
        case (let errorA?, let errorB?):
            if errorA < errorB * (1 - errorMargin) { return true }
            if errorA > errorB * (1 + errorMargin) { return false }
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): break
        }
        return a < b
    }

    /// The best fresh receiver with a valid fix, by the order.
    private func best(at now: Double) -> Int? {
        var best: Int?
        for index in members.indices where isFresh(index, at: now) {
            guard let fix = members[index].latest, FixClass(fix).isValid else { continue }
            if let chosen = best, !beats(index, chosen) { continue }
            best = index
        }
        return best
    }

    private mutating func switchTo(_ receiver: Int, reason: SwitchReason, at now: Double) -> [Action] {
        let from = current
        current = receiver
        for index in members.indices { members[index].betterInARow = 0 }
        var actions: [Action] = [.switched(from: from, to: receiver, reason: reason)]
        if let fix = members[receiver].latest { actions += send(fix, from: receiver) }
        return actions
    }

    private mutating func send(_ fix: Fix, from receiver: Int) -> [Action] {
        if let time = fix.time, let lastSent, time <= lastSent { return [] }
        if let time = fix.time { lastSent = time }
        return [.emit(fix, receiver: receiver)]
    }
}
