/// Decides where one reporting cycle ends and the next begins, from the kind and time of each
/// sentence that bears on the fix: a pure state machine that returns what to do, and holds no
/// sentence and no fix (``EpochAssembler`` does what it says).
///
/// The rules, as gpsd's:
/// - A sentence with a time different from the epoch's ends the epoch.
/// - At each such change, the last sentence of the ended cycle (its kind, and how many of that
///   kind the cycle had) is learned as the cycle's end, unless one is known already; from then
///   on, that sentence ends the epoch at once ("ended early"), without waiting for the next time.
/// - After an early end, sentences without a time belong to the next epoch: they are held. A
///   timed sentence then either starts the next epoch (the held ones go into it) or carries the
///   ended epoch's time: the learned end was wrong, so it is forgotten and the epoch goes on (to
///   be delivered again, revised). Held sentences that end the way a cycle ends, or that pile up
///   to ``maximumHeld``, are a cycle of their own: a receiver with no clock.
/// - In an epoch with no time, the first kind of the epoch coming round again starts a new one.
/// - In an epoch with a time, a kind that carries a time coming round again with its time
///   field empty starts a new one: the receiver has lost its clock (it goes on sending cycles
///   without one, which are then told apart by the rule above).
/// - A clock (ZDA: a time and a date, nothing about the fix) gives an epoch its time only when
///   no other sentence has: its time ends an epoch whose time came from a clock (a receiver
///   that sends only ZDA, or ZDA first), not one whose time a position gave. There, a ZDA
///   stamped apart from the positions of its cycle (a few tens of milliseconds later, or a
///   second before) is taken as a sentence without a time, as gpsd takes it, rather than as
///   a cycle of its own; and when an epoch opened by a clock meets a position with another
///   time, the position's time is the epoch's.
/// - When a device's reader saw the line go quiet between two sentences (``quiet()``), the
///   receiver ended a burst there. The order alone cannot say whether a sentence without a
///   time that comes next (a VTG) heads the next cycle or trails this one; so after a quiet,
///   sentences without a time wait, held, for the next timed sentence to say: a new time
///   makes them the head of its cycle (and the sentence before the quiet is the cycle's end,
///   learned even over an end learned from the order alone that held them), the epoch's time
///   or another quiet makes them the tail of the epoch in progress. A log read from a file
///   has no quiets, and the order alone decides.
struct CycleTracker: Sendable {
    /// What to do with one sentence, in this order: hold it, deliver the epoch, start a new
    /// epoch, merge the held sentences, merge it, deliver the epoch.
    struct Step: Sendable, Equatable {
        /// Keep the sentence for the next epoch instead of merging it now.
        var hold = false
        /// Deliver the epoch in progress first.
        var deliverFirst = false
        /// Forget the held sentences.
        var dropHeld = false
        /// Start a new epoch (no field of the last one carries over).
        var startEpoch = false
        /// Merge the held sentences, in the order they came.
        var releaseHeld = false
        /// Deliver the epoch once everything above is merged.
        var deliverAfter = false

        /// Merge the sentence into the epoch in progress.
        var merge: Bool { !hold }
    }

    /// What to do at the end of the input, in this order: deliver the epoch in progress; start
    /// a new epoch and merge the held sentences into it; deliver the epoch; start a new epoch.
    struct Finish: Sendable, Equatable {
        /// Merge the held sentences into the epoch in progress, before anything else.
        var mergeHeld = false
        /// Deliver the epoch in progress first.
        var deliverFirst = false
        /// Forget the held sentences.
        var dropHeld = false
        var releaseHeld = false
        var deliver = false
        var startEpoch = false
    }

    /// The most sentences held after an early end before they are taken as a cycle of their own.
    static let maximumHeld = 64

    /// One kind of sentence, counted in a cycle: the sentence's type.
    struct Kind: Sendable, Hashable {
        let id: ObjectIdentifier
        /// Whether the type has a time field (empty or not in a given sentence).
        let isTimed: Bool
        /// Whether the type is a clock (``SentenceType/isClock``).
        let isClock: Bool
        init<Sentence: SentenceType>(_ type: Sentence.Type) {
            id = ObjectIdentifier(type)
            isTimed = Sentence.timeField != nil
            isClock = Sentence.isClock
        }
        init<Message: UBXMessageType>(_ type: Message.Type) {
            id = ObjectIdentifier(type)
            isTimed = true
            isClock = false
        }
    }

    /// A sentence's place in a cycle: its kind, and how many of that kind came up to it.
    struct Position: Sendable, Equatable {
        var kind: Kind
        var occurrence: Int
    }

    private var counts = KindCounts()
    private var first: Kind?
    private var last: Position?
    /// The learned end of a cycle.
    private(set) var cycleEnd: Position?
    private var endedEarly = false
    /// The first time any sentence of the epoch carried.
    private(set) var epochTime: TimeOfDay?
    /// Whether that time came from a clock that no position has confirmed.
    private var epochTimeIsClock = false
    /// Whether held sentences (a clock with another time than the epoch's and what followed
    /// it, or what came after a quiet) wait for a position to say which epoch they belong to.
    private var awaitingPosition = false
    /// Whether a sentence other than a clock has carried a time: the stream has positions.
    private var positionsSeen = false
    /// Whether everything counted into the epoch since it started is a clock.
    private var onlyClocks = true
    /// Whether anything was merged since the epoch started or was last delivered.
    private(set) var hasData = false
    /// Kinds of the held sentences, in order.
    private var held: [Kind] = []
    private var heldEnds = 0

    /// A sentence of `kind` with `time` has arrived.
    @inline(__always)
    mutating func arrive(_ kind: Kind, time: TimeOfDay?) -> Step {
        if awaitingPosition || (kind.isClock && !endedEarly && !epochTimeIsClock && time != nil && epochTime != nil && time != epochTime) {
            return arriveUndecided(kind, time: time)
        }
        var step = Step()
        if let time, epochTimeIsClock, !kind.isClock, !endedEarly, epochTime != nil {
            // A position in an epoch a clock opened: its time is the epoch's.
            epochTime = time
            epochTimeIsClock = false
        } else if let time {
            if endedEarly {
                endedEarly = false
                if time == epochTime {
                    cycleEnd = nil
                    hasData = true
                } else {
                    step.startEpoch = true
                    startEpoch()
                }
                step.releaseHeld = true
                releaseHeld()
            } else if let current = epochTime, current != time {
                if cycleEnd == nil, let last { cycleEnd = last }
                step.deliverFirst = hasData
                step.startEpoch = true
                startEpoch()
            }
        } else if endedEarly {
            step.hold = true
            held.append(kind)
            if kind == cycleEnd?.kind { heldEnds += 1 }
            if heldEnds == cycleEnd?.occurrence || held.count >= Self.maximumHeld {
                step.startEpoch = true
                startEpoch()
                step.releaseHeld = true
                releaseHeld()
                step.deliverAfter = true
                hasData = false
            }
            return step
        } else if epochTime == nil, hasData, kind == first {
            step.deliverFirst = true
            step.startEpoch = true
            startEpoch()
        } else if epochTime != nil, kind.isTimed, counts.contains(kind) {
            step.deliverFirst = hasData
            step.startEpoch = true
            startEpoch()
        }

        count(kind, time: time, &step)
        return step
    }

    /// A clock with another time than the epoch's, or what comes while held sentences wait
    /// (rare: out of line, so that the common path stays small).
    @inline(never)
    private mutating func arriveUndecided(_ kind: Kind, time: TimeOfDay?) -> Step {
        if let decided = decideHeld(kind, time: time) { return decided }
        var step = Step()
        step.releaseHeld = true
        if let time, time != epochTime {
            // The held sentences head the new cycle: one of them cannot be the old one's end.
            if let last, cycleEnd == nil || heldHeadsCycleEnd { cycleEnd = last }
            step.deliverFirst = hasData
            step.startEpoch = true
            startEpoch()
        }
        releaseHeld()
        count(kind, time: time, &step)
        return step
    }

    /// Counts a sentence that is merged into the epoch, and ends the epoch at the learned end.
    @inline(__always)
    private mutating func count(_ kind: Kind, time: TimeOfDay?, _ step: inout Step) {
        note(kind)
        if time != nil, !kind.isClock { positionsSeen = true }
        if let time, epochTime == nil {
            epochTime = time
            epochTimeIsClock = kind.isClock
        }
        if let cycleEnd, cycleEnd == last, epochTime != nil {
            step.deliverAfter = true
            hasData = false
            endedEarly = true
        }
    }

    /// A clock whose time is not the epoch's, what comes after it, or what comes after a
    /// quiet: until a position says which epoch they belong to, clocks and sentences without a
    /// time wait (the step holds them). Returns `nil` once a timed sentence decides: the caller
    /// then merges the held sentences into the epoch in progress when that sentence carries the
    /// epoch's time (a clock stamped apart, the tail of a burst), and into a new epoch otherwise
    /// (they opened the next cycle).
    private mutating func decideHeld(_ kind: Kind, time: TimeOfDay?) -> Step? {
        if kind.isClock || time == nil, held.count < Self.maximumHeld {
            awaitingPosition = true
            held.append(kind)
            var step = Step()
            step.hold = true
            return step
        }
        awaitingPosition = false
        return nil
    }

    /// The line went quiet after the last sentence: see the rules above. Returns what to do
    /// now: at most, merge the held sentences into the epoch in progress, and deliver it if
    /// they complete the learned end.
    mutating func quiet() -> Step {
        var step = Step()
        if awaitingPosition {
            // What came between the burst's quiet and this one, and no time to place it: the
            // end of the burst.
            awaitingPosition = false
            step.releaseHeld = true
            releaseHeld()
            if let cycleEnd, cycleEnd == last, epochTime != nil {
                step.deliverAfter = true
                hasData = false
                endedEarly = true
                return step
            }
        }
        // (Not in an epoch a clock opened: a receiver that sends only ZDA has bursts of one.)
        if epochTime != nil, !epochTimeIsClock, hasData, !endedEarly { awaitingPosition = true }
        return step
    }

    /// The input has ended.
    mutating func finish() -> Finish {
        var finish = Finish()
        if awaitingPosition {
            awaitingPosition = false
            if !held.contains(where: \.isClock) {
                // Sentences after a quiet, and no time after them: the end of the burst before.
                finish.mergeHeld = true
                releaseHeld()
            } else if positionsSeen, heldOnlyClocks {
                // A clock alone at the end, after positions: it belongs to no epoch of its own.
                held.removeAll()
                finish.dropHeld = true
            } else {
                // A clock and what followed it, no position after them: the cycle it opened.
                finish.deliverFirst = hasData
                startEpoch()
                finish.releaseHeld = true
                releaseHeld()
            }
        }
        if endedEarly {
            endedEarly = false
            guard !held.isEmpty else { return finish }
            startEpoch()
            finish.releaseHeld = true
            releaseHeld()
        }
        // An epoch a clock opened at the end, nothing else in it, after positions: as above.
        finish.deliver = hasData && !(positionsSeen && onlyClocks)
        finish.startEpoch = true
        startEpoch()
        return finish
    }

    /// Whether every held sentence is a clock.
    private var heldOnlyClocks: Bool { held.allSatisfy(\.isClock) }

    /// Whether a held sentence without a time is of the learned end's kind.
    private var heldHeadsCycleEnd: Bool {
        guard let cycleEnd, !cycleEnd.kind.isTimed else { return false }
        return held.contains(cycleEnd.kind)
    }

    private mutating func startEpoch() {
        counts.removeAll()
        first = nil
        last = nil
        epochTime = nil
        epochTimeIsClock = false
        onlyClocks = true
        hasData = false
    }

    private mutating func releaseHeld() {
        for kind in held { note(kind) }
        held.removeAll(keepingCapacity: true)
        heldEnds = 0
    }

    /// Counts a sentence of `kind` into the epoch.
    private mutating func note(_ kind: Kind) {
        if !kind.isClock { onlyClocks = false }
        let occurrence = counts.increment(kind)
        if first == nil { first = kind }
        last = Position(kind: kind, occurrence: occurrence)
        hasData = true
    }
}

/// How many sentences of each kind an epoch had, for the first sixteen kinds (no receiver sends
/// more kinds that bear on the fix); a count stops at 15 (no cycle has more of one kind that
/// matter).
struct KindCounts: Sendable {
    /// The kinds seen, in the order they came, and a count beside each; only the first
    /// `kindCount` slots are in use.
    private var kinds = InlineArray<16, ObjectIdentifier?>(repeating: nil)
    private var counts = InlineArray<16, UInt8>(repeating: 0)
    private var kindCount = 0

    /// Forgets every count (the slots are overwritten as kinds come again).
    mutating func removeAll() { kindCount = 0 }

    /// Whether `kind` has been counted.
    func contains(_ kind: CycleTracker.Kind) -> Bool {
        for slot in 0..<kindCount where kinds[slot] == kind.id { return true }
        return false
    }

    /// Adds one to the count of `kind` and returns its new value.
    @inline(__always)
    mutating func increment(_ kind: CycleTracker.Kind) -> Int {
        var slot = 0
        while slot < kindCount, kinds[slot] != kind.id { slot &+= 1 }
        if slot == kindCount {
            guard slot < 16 else { return 15 }
            kinds[slot] = kind.id
            counts[slot] = 0
            kindCount &+= 1
        }
        let count = min(counts[slot] &+ 1, 15)
        counts[slot] = count
        return Int(count)
    }
}
