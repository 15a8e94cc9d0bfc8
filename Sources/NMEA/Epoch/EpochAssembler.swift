/// Merges the sentences of one reporting cycle into a ``Fix``, and GSV groups into
/// ``SatelliteView`` values with the used flags from GSA.
///
/// ## Where a cycle ends
/// A receiver sends a burst of sentences per epoch (GGA, GSA, GSV, RMC… in its own order).
/// As gpsd does, the assembler ends an epoch in one of two ways:
/// - a sentence carries a time different from the epoch's: the epoch is over;
/// - once learned, the sentence that ended the previous cycle arrives again: the epoch is
///   over at once, without waiting a whole cycle for the next time. The assembler learns it
///   at each time change as the last fix-bearing sentence of the cycle (and how many of that
///   type the cycle had, so receivers that send one GSA per constellation work).
///
/// A clock (ZDA: a time and a date, nothing about the fix) gives an epoch its time only when
/// no position does: a ZDA stamped apart from its cycle's positions (tens of milliseconds
/// later, a second or two off) makes no epoch of its own (see `CycleTracker`).
///
/// Sentences without a time (GSA, VTG, HDT) belong to the epoch in progress. One that comes
/// after the epoch was ended early is kept for the next epoch; if a sentence with the ended
/// epoch's time follows, the learned ending was wrong: it is forgotten, and the epoch is
/// completed and delivered again, revised, when it really ends. Receivers that send neither
/// RMC nor GGA still make fixes from what they send (GNS, GLL, VTG…); a fix's time needs a
/// date, from RMC or ZDA (see ``DateResolver``).
///
/// Which epoch an untimed sentence belongs to cannot always be told from the order alone: a
/// receiver that sends its VTG first in each cycle makes it arrive after the previous cycle's
/// last sentence, exactly where another receiver's trailing VTG arrives. A device's reader
/// tells: it sees the line go quiet between bursts (``noteQuiet(emit:)``), and an untimed sentence
/// after a quiet waits for the next timed one to say which cycle it heads or trails. A log
/// read from a file has no such evidence, so a timed sentence's speed and course (RMC's) are
/// kept over VTG's, and VTG's magnetic course counts only when its true course is the
/// epoch's: a VTG of the next cycle then changes nothing.
///
/// No value is carried from one epoch to the next: a field a cycle did not send is `nil`.
///
/// ## Which indicators decide the fix
/// Receivers say whether they have a fix in several places, and the places disagree: a GSA
/// from the cycle before, a count of `00` beside a valid position, a 4.10 navigational status.
/// The epoch's ``Fix/mode`` follows from them in this order, after NMEA 0183 (4.11):
///
/// 1. **The position sentences' own indicators decide whether there is a fix.** GGA's quality
///    (0 invalid, 1 to 8 valid, 6 being dead reckoning), RMC's and GLL's status (`A`/`V`) with
///    their mode indicator (`N` is not valid), GNS's mode indicators (valid when one of them is
///    not `N`). A sentence whose indicators say invalid contributes no position (nor speed,
///    course or altitude); a receiver's last known position under "no fix" is not a fix.
/// 2. **Any valid position makes a fix.** If one position sentence of the epoch marks its
///    position valid and gives both coordinates, the epoch has a fix, whatever another says:
///    a position the receiver marks valid is never dropped. A sentence marked valid that gives
///    no position counts as no fix.
/// 3. **Otherwise a "no fix" decides**: mode 1, no position.
/// 4. **A position with no indicator at all** (every indicator field empty or malformed) is a
///    fix when nothing in the epoch says otherwise.
/// 5. **With no position sentence, GSA's fix type decides** (1 no fix, 2 2D, 3 3D); with no
///    GSA either, the mode is 0 (unknown).
///
/// The dimension of a fix: 3D when a GGA or GNS that counts gave an altitude, 2D when it gave
/// none (the timed solution sentence speaks for the same instant as its position; GSA has no
/// time, and receivers often send the cycle before's). With no such GGA or GNS, GSA's fix type
/// 2 or 3 decides; with no GSA, the fix is 2D, or 3D when the epoch before was 3D (as gpsd does
/// for a receiver that sends only RMC).
///
/// Never deciding: the satellites-used count (`00` beside a valid fix is common), the DOPs
/// (`99.99` and `0.00` are placeholders), the 4.10 navigational status (`V` there means the
/// receiver gives no status, not an invalid fix), VTG's mode indicator (which governs VTG's
/// own speed and course only), and anything proprietary.
///
/// Whatever the mode, an epoch with a time of day and a known date reports its time: a
/// receiver without a fix still keeps UTC, and timing users need it.
///
/// Three parts do the work: `CycleTracker` decides where cycles end, `EpochAccumulator`
/// merges each sentence (each sentence type's `apply(to:)` says how), and `FixFinisher`
/// decides the mode and derives climb and speed.
public struct EpochAssembler: Sendable {
    /// What the assembler hands out.
    public enum Output: Sendable {
        /// A completed epoch: its sky, then its fix.
        case epoch(Epoch)
        /// A GSV group dropped with parts missing.
        case rejected(RejectedInput)

        /// The epoch, when this is one.
        public var epoch: Epoch? { if case .epoch(let epoch) = self { epoch } else { nil } }
    }

    /// Dates and years.
    public var dates: DateResolver { epoch.dates }

    private var tracker = CycleTracker()
    private var epoch: EpochAccumulator
    private var finisher = FixFinisher()
    private var sky = SatelliteViewAssembler()
    private var skies = SkyAssembler()
    /// The last epoch handed out, when nobody kept it: the next one is built in its box.
    private var spare: Epoch?
    /// Sentences held for the next epoch (see ``CycleTracker``), as values: rare enough that
    /// the enum's round trip costs nothing that shows.
    private var held: [NMEASentence] = []
    /// When the sentence being added began to arrive (``NMEADecoder`` sets it from the time
    /// its reader stamped the bytes with); `nil` when the bytes were not stamped.
    var sentenceReceivedAt: UTCTime?
    /// When the first sentence since the last delivered fix began to arrive: the epoch in
    /// progress's first byte.
    private var pendingReceivedAt: UTCTime?
    /// The same, as it was before the sentence being added.
    private var receivedBeforeThis: UTCTime?

    /// Creates an assembler.
    public init(dates: DateResolver.Configuration = DateResolver.Configuration()) {
        epoch = EpochAccumulator(dates: DateResolver(configuration: dates))
    }

    /// Adds a decoded sentence; `emit` receives any epoch it completes.
    public mutating func add(_ sentence: NMEASentence, emit: (Output) -> Void) {
        noteReception()
        withoutActuallyEscaping(emit) { emit in
            // The assembler moves into the visitor and back: a copy would share, and then copy
            // on write, its buffers.
            var entry = Entry(assembler: EpochAssembler(), sink: ClosureEpochSink(emit: emit))
            swap(&entry.assembler, &self)
            sentence.accept(&entry)
            swap(&entry.assembler, &self)
        }
    }

    /// Takes a sentence that came as the enum to its type's entry point.
    private struct Entry<Sink: EpochSink>: SentenceVisitor {
        var assembler: EpochAssembler
        var sink: Sink
        mutating func visit<Sentence: SentenceType>(_ sentence: Sentence) { sentence.enter(&assembler, &sink) }
    }

    /// Adds a decoded sentence of any type; `sink` receives what it completes.
    @inline(__always)
    mutating func add<Sentence: SentenceType, Sink: EpochSink>(_ sentence: Sentence, into sink: inout Sink) {
        noteReception()
        sentence.enter(&self, &sink)
    }

    /// Every sentence, whatever it bears on, may be the first of its epoch.
    @inline(__always)
    private mutating func noteReception() {
        receivedBeforeThis = pendingReceivedAt
        if pendingReceivedAt == nil { pendingReceivedAt = sentenceReceivedAt }
    }

    /// A sentence that bears on the fix, through the cycle logic into the epoch.
    mutating func merge<Sentence: SentenceType, Sink: EpochSink>(_ sentence: Sentence, into sink: inout Sink) {
        let step = tracker.arrive(CycleTracker.Kind(Sentence.self), time: sentence.time)
        if step.hold { held.append(sentence.sentence) }
        take(step, into: &sink) { sentence.apply(to: &$0) }
    }

    /// Adds a decoded UBX message; `sink` receives what it completes.
    mutating func add<Message: UBXMessageType, Sink: EpochSink>(ubx message: Message, into sink: inout Sink) {
        message.enter(&self, &sink)
    }

    /// A UBX message that bears on the fix, through the same cycle logic into the epoch, on the
    /// clock NMEA's sentences are on (``UBXEpochClock``). A message too short to carry its time
    /// of week belongs to no epoch that can be told: it is left out.
    mutating func merge<Message: UBXMessageType, Sink: EpochSink>(ubx message: Message, into sink: inout Sink) {
        noteReception()
        message.teach(&epoch.ubxClock)
        guard let timeOfWeek = message.timeOfWeek else { return }
        let time = epoch.ubxClock.timeOfDay(timeOfWeek: timeOfWeek)
        var step = tracker.arrive(CycleTracker.Kind(Message.self), time: time)
        // Only a sentence without a time, or a clock, is ever held; a UBX message has a time.
        assert(!step.hold, "a UBX message held")
        step.hold = false
        take(step, into: &sink) { epoch in
            epoch.ubx.isEmpty = false
            message.apply(to: &epoch)
        }
    }

    /// A time pulse announced (TIM-TP): outside the cycle logic (it names the next second, not
    /// the epoch's), carried by the epoch in progress and the ones after it.
    /// It leaves the epoch's reception time alone: it is sent ahead of the reports.
    mutating func noteTimePulse(_ message: TIMTP) {
        let leapSeconds = epoch.ubxClock.leapSeconds ?? epoch.leapSeconds ?? GPSTime.assumedLeapSeconds
        if let pulse = message.pulse(leapSeconds: leapSeconds) { epoch.noteTimePulse(pulse) }
    }

    /// A fix of its own, outside the navigation epochs (HNR-PVT's): handed out at once, with no
    /// sky. It leaves the epoch in progress, the cycle logic and the epoch's reception time as
    /// they were; its climb and derived speed come from the fix of its kind before it.
    @inline(never)
    mutating func deliverHighRate<Sink: EpochSink>(_ fields: UBXEpochFields, into sink: inout Sink) {
        var epoch = spare.take() ?? Epoch(sky: nil, fix: nil)
        do {
            let box = epoch.uniqueStorage()
            box.fix = Fix()
            box.fix.isHighRate = true
            box.fix.leapSeconds = self.epoch.leapSeconds
            fields.overlay(onto: &box.fix, leapSeconds: self.epoch.ubxClock.leapSeconds)
            finisher.finishHighRate(&box.fix)
            box.fix.receivedAt = sentenceReceivedAt
            box.hasFix = true
            box.sky = nil
        }
        hand(consume epoch, viewCount: 0, to: &sink)
    }

    /// Does what the tracker said, merging the input where it says.
    @inline(__always)
    private mutating func take<Sink: EpochSink>(_ step: CycleTracker.Step, into sink: inout Sink,
                                               merge: (inout EpochAccumulator) -> Void) {
        if step.deliverFirst { deliver(&sink, startingNext: true) }
        if step.startEpoch { epoch.startEpoch() }
        if step.releaseHeld { releaseHeld() }
        if step.merge { merge(&epoch) }
        if step.deliverAfter { deliver(&sink, startingNext: false) }
    }

    /// A GSV part, to the sky; a completed view takes the epoch's time and used flags. A view
    /// that starts another epoch's sky, in an epoch with no fix, ends the sky before it.
    mutating func addSatellites<Sink: EpochSink>(_ gsv: GSV, into sink: inout Sink) {
        guard var view = sky.add(gsv, spares: &skies, dropped: { sink.rejected($0) }) else { return }
        // Resolved once per completed view, not for every part.
        // Not `flatMap(epoch.dates.resolve)`: the method reference boxes a copy of the resolver
        // on the heap, one allocation per view (the decode benchmark's malloc count guards this).
        if let time = epoch.timeOfDay { view.time = epoch.dates.resolve(time) }
        epoch.markUsed(in: &view.satellites)
        if let previous = skies.add(view) {
            hand(sky: previous, to: &sink)
        }
    }

    /// A view a UBX message made, to the sky: it takes the place of the epoch's GSV views.
    mutating func addUBX<Sink: EpochSink>(_ view: SatelliteView, into sink: inout Sink) {
        if let previous = skies.addUBX(view) {
            hand(sky: previous, to: &sink)
        }
    }

    /// Tells the assembler that the line went quiet after the last sentence added: the
    /// receiver ended a burst there (see ``NMEADecoder/noteQuiet(_:)``). Sentences without a
    /// time that come next wait for a timed one to say whether they head the next cycle; `emit`
    /// receives an epoch that the quiet completes.
    public mutating func noteQuiet(emit: (Output) -> Void) {
        withSink(emit) { $0.noteQuiet(into: &$1) }
    }

    /// The line went quiet; `sink` receives an epoch that the held sentences complete.
    mutating func noteQuiet<Sink: EpochSink>(into sink: inout Sink) {
        // Nothing of its own to merge: the step releases the held sentences, or delivers.
        take(tracker.quiet(), into: &sink) { _ in }
    }

    /// Ends the input: delivers the epoch in progress and any sentences held for the next one.
    public mutating func finish(emit: (Output) -> Void) {
        withSink(emit) { $0.finish(into: &$1) }
    }

    /// Runs `body` with a sink that hands what it receives to `emit`.
    private mutating func withSink(_ emit: (Output) -> Void,
                                   _ body: (inout EpochAssembler, inout ClosureEpochSink) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureEpochSink(emit: emit)
            body(&self, &sink)
        }
    }

    /// Ends the input: delivers the epoch in progress and any sentences held for the next one.
    mutating func finish<Sink: EpochSink>(into sink: inout Sink) {
        let finish = tracker.finish()
        if finish.mergeHeld { releaseHeld() }
        if finish.dropHeld { held.removeAll(keepingCapacity: true) }
        if finish.deliverFirst { deliver(&sink, startingNext: false) }
        if finish.releaseHeld {
            epoch.startEpoch()
            releaseHeld()
        }
        if finish.deliver { deliver(&sink, startingNext: false) }
        if finish.startEpoch { epoch.startEpoch() }
        if let views = skies.finish() { hand(sky: views, to: &sink) }
    }

    private mutating func releaseHeld() {
        for sentence in held { sentence.accept(&epoch) }
        held.removeAll(keepingCapacity: true)
    }

    /// Delivers the epoch in progress; `startingNext` when the sentence being added is the
    /// first of the next epoch (the epoch ended because it came), so that its reception time
    /// is the next epoch's, not this one's.
    private mutating func deliver<Sink: EpochSink>(_ sink: inout Sink, startingNext: Bool) {
        let receivedAt: UTCTime?
        if startingNext {
            receivedAt = receivedBeforeThis ?? sentenceReceivedAt
            pendingReceivedAt = sentenceReceivedAt
        } else {
            receivedAt = pendingReceivedAt
            pendingReceivedAt = nil
        }
        var epoch = spare.take() ?? Epoch(sky: nil, fix: nil)
        // Built in the box: the fix is copied once, from the accumulator. (The box's reference
        // ends with the block, before the sink is asked whether it kept the epoch.)
        let viewCount: Int
        do {
            let box = epoch.uniqueStorage()
            finisher.finish(&self.epoch, into: &box.fix)
            box.fix.receivedAt = receivedAt
            box.hasFix = true
            box.sky = skies.finish(with: Sky.Completion(box.fix))
            viewCount = box.sky?.views.count ?? 0
            finisher.estimateErrors(&box.fix) { viewCount > 0 ? box.sky?.geometry : nil }
        }
        hand(consume epoch, viewCount: viewCount, to: &sink)
    }

    /// Hands out `sky` as an epoch without a fix.
    private mutating func hand<Sink: EpochSink>(sky: consuming Sky, to sink: inout Sink) {
        var epoch = spare.take() ?? Epoch(sky: nil, fix: nil)
        let viewCount = sky.views.count
        do {
            let box = epoch.uniqueStorage()
            box.sky = sky
            box.hasFix = false
        }
        hand(consume epoch, viewCount: viewCount, to: &sink)
    }

    /// Hands `epoch` to the sink, then, if the sink kept no reference to it, takes back its box
    /// and the storage of its views: what the sink did not keep is built into again, so a
    /// receiver that keeps nothing costs no allocation per epoch, per view or per sky.
    private mutating func hand<Sink: EpochSink>(_ epoch: consuming Epoch, viewCount: Int, to sink: inout Sink) {
        sink.epoch(epoch, viewCount: viewCount)
        guard epoch.isUnique() else {
            if viewCount > 0 { skies.lastSkyKept() }
            return
        }
        let sky = epoch.uniqueStorage().sky.take()
        spare = epoch
        if let sky, !sky.views.isEmpty { skies.recycle(sky.views) }
    }
}

/// Held sentences are merged through the enum.
extension EpochAccumulator: SentenceVisitor {
    mutating func visit<Sentence: SentenceType>(_ sentence: Sentence) { sentence.apply(to: &self) }
}
