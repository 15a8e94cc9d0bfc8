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
/// Sentences without a time (GSA, VTG, HDT) belong to the epoch in progress. One that comes
/// after the epoch was ended early is kept for the next epoch; if a sentence with the ended
/// epoch's time follows, the learned ending was wrong: it is forgotten, and the epoch is
/// completed and delivered again, revised, when it really ends. Receivers that send neither
/// RMC nor GGA still make fixes from what they send (GNS, GLL, VTG…); a fix's time needs a
/// date, from RMC or ZDA (see ``DateResolver``).
///
/// No value is carried from one epoch to the next: a field a cycle did not send is `nil`.
public struct EpochAssembler: Sendable {
    /// What the assembler hands out.
    public enum Output: Sendable {
        /// A completed epoch (held indirectly: a ``Fix`` is large).
        indirect case fix(Fix)
        /// A completed GSV group.
        case satellites(SatelliteView)
        /// A GSV group dropped with parts missing.
        case rejected(RejectedInput)
    }

    private enum Kind: Int, Sendable {
        case gga, rmc, gsa, vtg, gll, zda, gst, gns, gbs, hdt, pgrmz
    }

    private struct CycleEnd: Sendable, Equatable {
        var kind: Kind
        var occurrence: Int
    }

    /// Dates and years.
    public private(set) var dates: DateResolver

    private var fix = Fix()
    private var epochHasData = false
    private var modeEvidence = ModeEvidence()
    private var counts = KindCounts()
    private var garminAltitude: Double?
    private var last: CycleEnd?
    private var first: Kind?
    private var cycleEnd: CycleEnd?
    private var endedEarly = false
    private var pending: [NMEASentence] = []
    private struct Reference: Sendable {
        var time: UTCTime
        var altitude: Double?
        var latitude: Double?
        var longitude: Double?
    }

    /// The epoch delivered before the last one delivered, and the last one: a revised epoch
    /// derives its climb and speed from the same epoch as its first delivery did.
    private var previous: Reference?
    private var lastDelivered: Reference?
    private var previousMode = FixMode.unknown
    private var epochSerial = 0
    private var usedSerial = -1
    private var used = SatelliteSet()
    private var sky = SatelliteViewAssembler()

    /// Creates an assembler.
    public init(dates: DateResolver.Configuration = DateResolver.Configuration()) {
        self.dates = DateResolver(configuration: dates)
    }

    /// Adds a decoded sentence; `emit` receives any fix or satellite view it completes.
    public mutating func add(_ sentence: NMEASentence, emit: (Output) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureEpochSink(emit: emit)
            add(sentence, into: &sink)
        }
    }

    /// Adds a decoded sentence; `sink` receives any fix or satellite view it completes.
    mutating func add<Sink: EpochSink>(_ sentence: NMEASentence, into sink: inout Sink) {
        switch sentence {
        case .gga(let s): add(s, into: &sink)
        case .rmc(let s): add(s, into: &sink)
        case .gsa(let s): add(s, into: &sink)
        case .gsv(let s): add(s, into: &sink)
        case .vtg(let s): add(s, into: &sink)
        case .gll(let s): add(s, into: &sink)
        case .zda(let s): add(s, into: &sink)
        case .gst(let s): add(s, into: &sink)
        case .gns(let s): add(s, into: &sink)
        case .gbs(let s): add(s, into: &sink)
        case .hdt(let s): add(s, into: &sink)
        case .pgrmz(let s): add(s, into: &sink)
        case .dtm, .txt: break
        }
    }

    // One entry point per type, so the decoder can hand sentences over without building (and
    // copying) an ``NMEASentence`` for each.
    mutating func add<Sink: EpochSink>(_ s: GGA, into sink: inout Sink) { process(.gga, s.time, &sink, { .gga(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: RMC, into sink: inout Sink) { process(.rmc, s.time, &sink, { .rmc(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: GSA, into sink: inout Sink) { process(.gsa, nil, &sink, { .gsa(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: VTG, into sink: inout Sink) { process(.vtg, nil, &sink, { .vtg(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: GLL, into sink: inout Sink) { process(.gll, s.time, &sink, { .gll(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: ZDA, into sink: inout Sink) { process(.zda, s.time, &sink, { .zda(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: GST, into sink: inout Sink) { process(.gst, s.time, &sink, { .gst(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: GNS, into sink: inout Sink) { process(.gns, s.time, &sink, { .gns(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: GBS, into sink: inout Sink) { process(.gbs, s.time, &sink, { .gbs(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: HDT, into sink: inout Sink) { process(.hdt, nil, &sink, { .hdt(s) }) { $0.apply(s) } }
    mutating func add<Sink: EpochSink>(_ s: PGRMZ, into sink: inout Sink) { process(.pgrmz, nil, &sink, { .pgrmz(s) }) { $0.apply(s) } }

    mutating func add<Sink: EpochSink>(_ gsv: GSV, into sink: inout Sink) {
        guard var view = sky.add(gsv, dropped: { sink.rejected($0) }) else { return }
        // Resolved once per completed view, not for every part.
        view.time = fix.timeOfDay.flatMap(dates.resolve)
        used.markUsed(&view.satellites)
        sky.recycle(view.satellites)
        sink.satellites(view)
    }

    /// The cycle logic shared by every fix-bearing sentence: `hold` makes the sentence a value
    /// to keep for the next epoch (rarely needed), `apply` merges it into the epoch.
    private mutating func process<Sink: EpochSink>(
        _ kind: Kind, _ time: TimeOfDay?, _ sink: inout Sink,
        _ hold: () -> NMEASentence, _ apply: (inout EpochAssembler) -> Void
    ) {
        if let time {
            if endedEarly {
                endedEarly = false
                if time == fix.timeOfDay {
                    // The learned end was wrong: this cycle goes on. Forget it; deliver again later.
                    cycleEnd = nil
                    epochHasData = true
                } else {
                    startEpoch()
                }
                applyPending()
            } else if let current = fix.timeOfDay, current != time {
                if cycleEnd == nil, let last { cycleEnd = last }
                if epochHasData { deliver(&sink) }
                startEpoch()
            }
        } else if endedEarly {
            pending.append(hold())
            // A receiver without a clock sends whole cycles with no time: when the held
            // sentences end the way a cycle ends (or pile up), they are a cycle of their own.
            let held = pending.reduce(0) { $0 + (Self.classify($1)?.0 == cycleEnd?.kind ? 1 : 0) }
            if held == cycleEnd?.occurrence || pending.count >= Self.maximumHeldSentences {
                startEpoch()
                applyPending()
                deliver(&sink)
            }
            return
        } else if fix.timeOfDay == nil, epochHasData, kind == first {
            // No time in this epoch, and its first sentence type comes round again: a new cycle.
            deliver(&sink)
            startEpoch()
        }

        note(kind)
        apply(&self)
        if let cycleEnd, cycleEnd == last, fix.timeOfDay != nil {
            deliver(&sink)
            endedEarly = true
        }
    }

    /// Ends the input: delivers the epoch in progress and any sentences held for the next one.
    public mutating func finish(emit: (Output) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureEpochSink(emit: emit)
            finish(into: &sink)
        }
    }

    /// Ends the input: delivers the epoch in progress and any sentences held for the next one.
    mutating func finish<Sink: EpochSink>(into sink: inout Sink) {
        if endedEarly {
            endedEarly = false
            guard !pending.isEmpty else { return }
            startEpoch()
            applyPending()
        }
        if epochHasData { deliver(&sink) }
        startEpoch()
    }

    /// The most sentences held after an early end before they are taken as a cycle of their own.
    static let maximumHeldSentences = 64

    private mutating func applyPending() {
        // Taken out and put back emptied: the buffer is reused, not copied on write.
        var held: [NMEASentence] = []
        swap(&held, &pending)
        for sentence in held {
            guard let (kind, _) = Self.classify(sentence) else { continue }
            note(kind)
            apply(sentence)
        }
        held.removeAll(keepingCapacity: true)
        swap(&held, &pending)
    }

    /// The kind and time of a sentence that bears on the fix; `nil` for GSV, TXT and DTM.
    private static func classify(_ sentence: NMEASentence) -> (Kind, TimeOfDay?)? {
        switch sentence {
        case .gga(let s): (.gga, s.time)
        case .rmc(let s): (.rmc, s.time)
        case .gll(let s): (.gll, s.time)
        case .zda(let s): (.zda, s.time)
        case .gst(let s): (.gst, s.time)
        case .gns(let s): (.gns, s.time)
        case .gbs(let s): (.gbs, s.time)
        case .gsa: (.gsa, nil)
        case .vtg: (.vtg, nil)
        case .hdt: (.hdt, nil)
        case .pgrmz: (.pgrmz, nil)
        case .gsv, .txt, .dtm: nil
        }
    }

    private mutating func startEpoch() {
        fix = Fix()
        epochHasData = false
        modeEvidence = ModeEvidence()
        garminAltitude = nil
        counts = KindCounts()
        last = nil
        first = nil
        epochSerial &+= 1
    }

    private mutating func deliver<Sink: EpochSink>(_ sink: inout Sink) {
        var out = fix
        if out.altitudeMSL == nil { out.altitudeMSL = garminAltitude }
        out.mode = modeEvidence.mode(previous: previousMode)
        previousMode = out.mode
        if out.mode == .noFix {
            // A receiver that says it has no fix may still send its last position; it is not a fix.
            out.latitude = nil
            out.longitude = nil
            out.speed = nil
            out.track = nil
        }
        if out.mode < .threeD, out.mode != .unknown {
            out.altitudeMSL = nil
            out.geoidSeparation = nil
        }
        if let time = out.timeOfDay { out.time = dates.resolve(time) }
        if let time = out.time {
            if lastDelivered?.time != time { previous = lastDelivered }
            if let previous {
                let seconds = time.secondsSince1970 - previous.time.secondsSince1970
                if seconds > 0 {
                    if let altitude = out.altitudeMSL, let before = previous.altitude {
                        out.climb = (altitude - before) / seconds
                    }
                    if out.speed == nil, let latitude = out.latitude, let longitude = out.longitude,
                       let beforeLatitude = previous.latitude, let beforeLongitude = previous.longitude {
                        out.speed = greatCircleDistance(beforeLatitude, beforeLongitude, latitude, longitude) / seconds
                    }
                }
            }
            lastDelivered = Reference(time: time, altitude: out.altitudeMSL, latitude: out.latitude, longitude: out.longitude)
        }
        epochHasData = false
        sink.fix(out)
    }

    /// Counts a sentence of `kind` into the epoch (for learning where cycles end).
    private mutating func note(_ kind: Kind) {
        let occurrence = counts.increment(kind.rawValue)
        if first == nil { first = kind }
        last = CycleEnd(kind: kind, occurrence: occurrence)
        epochHasData = true
    }

    private mutating func apply(_ sentence: NMEASentence) {
        switch sentence {
        case .gga(let s): apply(s)
        case .rmc(let s): apply(s)
        case .gsa(let s): apply(s)
        case .vtg(let s): apply(s)
        case .gll(let s): apply(s)
        case .zda(let s): apply(s)
        case .gst(let s): apply(s)
        case .gns(let s): apply(s)
        case .gbs(let s): apply(s)
        case .hdt(let s): apply(s)
        case .pgrmz(let s): apply(s)
        case .gsv, .txt, .dtm: break
        }
    }

    private mutating func apply(_ s: GGA) {
        noteTime(s.time)
        if s.quality != .invalid { setPosition(s.latitude, s.longitude) }
        fix.quality = s.quality ?? fix.quality
        mergeSolution(satellites: s.satellitesUsed, hdop: s.hdop, altitude: s.altitudeMSL, separation: s.geoidSeparation,
                      age: s.differentialAge, station: s.differentialStation)
        modeEvidence.quality(s.satellitesUsed == 0 ? .invalid : s.quality, hasAltitude: s.altitudeMSL != nil)
    }

    private mutating func apply(_ s: GNS) {
        noteTime(s.time)
        let mode = s.bestMode
        if mode?.isValid ?? true { setPosition(s.latitude, s.longitude) }
        fix.positioningMode = mode ?? fix.positioningMode
        mergeSolution(satellites: s.satellitesUsed, hdop: s.hdop, altitude: s.altitudeMSL, separation: s.geoidSeparation,
                      age: s.differentialAge, station: s.differentialStation)
        fix.navigationalStatus = s.navigationalStatus ?? fix.navigationalStatus
        modeEvidence.validity(mode.map(\.isValid), hasAltitude: s.altitudeMSL != nil)
    }

    /// The solution data GGA and GNS share.
    private mutating func mergeSolution(satellites: Int?, hdop: Double?, altitude: Double?, separation: Double?,
                                        age: Double?, station: Int?) {
        fix.satellitesUsed = satellites ?? fix.satellitesUsed
        fix.hdop = hdop ?? fix.hdop
        fix.altitudeMSL = altitude ?? fix.altitudeMSL
        fix.geoidSeparation = separation ?? fix.geoidSeparation
        fix.differentialAge = age ?? fix.differentialAge
        fix.differentialStation = station ?? fix.differentialStation
    }

    private mutating func apply(_ s: RMC) {
        if let date = s.date { dates.noteTwoDigitDate(date, at: s.time) }
        noteTime(s.time)
        let valid = s.isValid != false && s.mode?.isValid != false
        if valid {
            setPosition(s.latitude, s.longitude)
            fix.speed = s.speed ?? fix.speed
            fix.track = s.course ?? fix.track
        }
        fix.magneticVariation = s.magneticVariation ?? fix.magneticVariation
        fix.positioningMode = s.mode ?? fix.positioningMode
        fix.navigationalStatus = s.navigationalStatus ?? fix.navigationalStatus
        modeEvidence.validity(s.isValid.map { $0 && s.mode?.isValid != false }, hasAltitude: false)
    }

    private mutating func apply(_ s: GLL) {
        noteTime(s.time)
        let valid = s.isValid != false && s.mode?.isValid != false
        if valid { setPosition(s.latitude, s.longitude) }
        fix.positioningMode = s.mode ?? fix.positioningMode
        modeEvidence.validity(s.isValid.map { $0 && s.mode?.isValid != false }, hasAltitude: false)
    }

    private mutating func apply(_ s: VTG) {
        if s.mode?.isValid != false {
            fix.speed = s.speed ?? fix.speed
            fix.track = s.courseTrue ?? fix.track
        }
        fix.positioningMode = s.mode ?? fix.positioningMode
    }

    private mutating func apply(_ s: GSA) {
        fix.pdop = s.pdop ?? fix.pdop
        fix.hdop = s.hdop ?? fix.hdop
        fix.vdop = s.vdop ?? fix.vdop
        modeEvidence.fixType(s.fixType)
        if usedSerial != epochSerial {
            usedSerial = epochSerial
            used.removeAll()
        }
        let system = s.systemID.flatMap(Constellation.init(nmeaSystemID:)) ?? s.talker.constellation
        s.satellites.forEachNumber { number in
            if let id = SatelliteID(nmeaID: number, constellation: system) { used.insert(id) }
        }
    }

    private mutating func apply(_ s: ZDA) {
        if let date = s.date { dates.noteFullDate(date, at: s.time) }
        noteTime(s.time)
    }

    private mutating func apply(_ s: GST) {
        noteTime(s.time)
        fix.errors = PositionErrors(
            latitude: s.latitudeDeviation, longitude: s.longitudeDeviation, altitude: s.altitudeDeviation,
            rangeRMS: s.rangeRMS, semiMajor: s.semiMajorDeviation, semiMinor: s.semiMinorDeviation,
            orientation: s.orientation)
    }

    private mutating func apply(_ s: GBS) { noteTime(s.time) }

    private mutating func apply(_ s: HDT) { fix.heading = s.heading ?? fix.heading }

    private mutating func apply(_ s: PGRMZ) {
        // Feet-resolution altitude: used only when the epoch has no GGA/GNS altitude.
        garminAltitude = s.altitude ?? garminAltitude
    }

    private mutating func noteTime(_ time: TimeOfDay?) {
        if let time, fix.timeOfDay == nil { fix.timeOfDay = time }
    }

    private mutating func setPosition(_ latitude: Double?, _ longitude: Double?) {
        guard let latitude, let longitude else { return }
        fix.latitude = latitude
        fix.longitude = longitude
    }
}

/// Metres between two positions on a sphere of the WGS-84 mean radius (haversine).
func greatCircleDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let radians = Double.pi / 180
    let dLatitude = (latitude2 - latitude1) * radians
    let dLongitude = (longitude2 - longitude1) * radians
    let a = sinSquaredHalf(dLatitude) + cosine(latitude1 * radians) * cosine(latitude2 * radians) * sinSquaredHalf(dLongitude)
    return 2 * 6_371_008.8 * arcsine(min(1, a.squareRoot()))
}

/// What the sentences of an epoch said about its dimension.
///
/// GGA (or GNS) decides when present: quality 0 or no satellite used is no fix, otherwise an
/// altitude makes it 3D. Receivers often send a GSA fix type that lags the GGA of the same
/// epoch, so GSA decides only without GGA, and RMC/GLL validity only without either.
struct ModeEvidence: Sendable {
    private var gsa: FixMode?
    private var quality: FixMode?
    private var validity: FixMode?

    mutating func fixType(_ type: Int?) {
        guard let type else { return }
        gsa = type == 3 ? .threeD : type == 2 ? .twoD : .noFix
    }

    mutating func quality(_ value: FixQuality?, hasAltitude: Bool) {
        guard let value else { return }
        quality = value == .invalid ? .noFix : hasAltitude ? .threeD : .twoD
    }

    mutating func validity(_ valid: Bool?, hasAltitude: Bool) {
        guard let valid else { return }
        let mode: FixMode = valid ? (hasAltitude ? .threeD : .twoD) : .noFix
        validity = max(validity ?? mode, mode)
    }

    /// The epoch's mode. `previous` is the mode of the epoch before: when only RMC or GLL
    /// speak ("valid"), a receiver that was in 3D stays in 3D.
    func mode(previous: FixMode) -> FixMode {
        if let decided = quality ?? gsa { return decided }
        guard let validity else { return .unknown }
        return validity == .twoD && previous == .threeD ? .threeD : validity
    }
}

/// How many sentences of each kind an epoch had: sixteen 4-bit counters in one word
/// (a counter stops at 15; no cycle has more of one kind that matter).
struct KindCounts: Sendable {
    private var packed: UInt64 = 0

    /// Adds one to counter `index` (0...15) and returns its new value.
    @inline(__always)
    mutating func increment(_ index: Int) -> Int {
        let shift = UInt64(truncatingIfNeeded: index &* 4)
        let value = (packed &>> shift) & 0xF
        guard value < 15 else { return 15 }
        packed &+= 1 &<< shift
        return Int(truncatingIfNeeded: value &+ 1)
    }
}
