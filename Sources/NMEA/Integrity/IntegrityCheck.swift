/// The integrity checks of one receiver: a pure state machine, told each epoch in order, that
/// answers with what looked wrong. It flags, never corrects: ``check(_:)`` sets the fix's
/// ``Fix/integrity`` and returns the events with their evidence.
///
/// - **Position jump**: between two fixes in a row (no epoch without a fix between them, at
///   most a few cycles apart), the fix moved farther than
///   `(speed × jumpSpeedFactor + jumpSpeedSlack) × seconds + jumpNoise + both fixes' error
///   estimates`, where `speed` is the larger of their reported speeds, or
///   ``IntegrityThresholds/maximumSpeed`` when either reported none.
/// - **Time step**: between two fixes (2D or 3D: a receiver's time before it has a fix is its
///   clock's guess), the receiver's time moved by more than
///   ``IntegrityThresholds/timeStepTolerance`` away from the clock it is compared with: the
///   system clock, when the fixes were stamped on arrival (``Fix/receivedAt``, a device);
///   else (a log) its own cycle times the epochs between, once it has shown its cycle. The
///   same instant told twice (within 0.1 s) is no step.
/// - **Altitude and speed**: a 3D fix's altitude outside the range, a fix's speed over the
///   limit.
/// - **Uniform signals**: an epoch's satellites with a carrier-to-noise density (at least
///   ``IntegrityThresholds/uniformMinimumSatellites``) whose mean is high and whose standard
///   deviation is small: one transmitter on the ground, not satellites at their elevations.
/// - **Signal loss**: of the strong signals of the last epoch that listed satellites, those
///   listed again fell, on average, by ``IntegrityThresholds/lossDrop`` or more (one listed
///   with no density counts as 0 dB-Hz; one no longer listed is not counted, as receivers
///   drop satellites from their lists for reasons of their own): a jammer, or an obstruction
///   such as a tunnel.
///
/// A position jump, a time step or a signal loss is an event each time; a range or uniform
/// signals, a state that lasts, is an event when it starts and a flag on each fix while it
/// lasts. High-rate fixes (``Fix/isHighRate``) run ahead of the epochs: only their ranges are
/// checked.
public struct IntegrityCheck: Sendable {
    /// The limits.
    public var thresholds: IntegrityThresholds
    /// The receiver named in the events; `nil` for none.
    public var source: String?

    /// The last fix with a position, while no epoch without one has come since.
    private var lastPosition: Position?
    /// The last fix's time, and when it arrived.
    private var lastTime: Stamp?
    /// Fixes since the last one with a time.
    private var fixesSinceTime = 0
    /// The receiver's cycle, seconds: the time between two fixes in a row.
    private var cycle: Double?
    /// The state-like kinds flagged on the last epoch that was checked for them.
    private var lastingFlags: IntegrityFlags = []
    /// The last sky with satellites: each strong signal's density, sorted by signal, and the
    /// views they were in. Sorted arrays searched by halves rather than hashed tables: a sky
    /// has a few dozen signals, and hashing each one cost more than the other checks together.
    private var strongSignals: [(signal: UInt64, density: Double)] = []
    private var strongViews: [UInt32] = []
    /// The arrays before those, emptied and filled again for the next sky: no allocation per
    /// sky once they have grown.
    private var spareSignals: [(signal: UInt64, density: Double)] = []
    private var spareViews: [UInt32] = []

    private struct Position {
        var latitude: Double, longitude: Double
        var seconds: Double?
        var speed: Double?
        var error: Double?
    }

    private struct Stamp {
        /// The fix's time, seconds (since 1970, or since midnight for a time of day alone).
        var seconds: Double
        var isTimeOfDay: Bool
        /// Its arrival on the system clock, seconds since 1970; `nil` when not stamped.
        var arrival: Double?
    }

    /// A view as one number: its talker and signal.
    private static func view(_ view: SatelliteView) -> UInt32 {
        UInt32(view.talker.code) << 16 | UInt32(UInt16(truncatingIfNeeded: (view.signalID ?? -1) + 1))
    }

    /// A satellite's signal as one number: its view's, and its own number and signal.
    private static func signal(_ satellite: Satellite, in view: UInt32) -> UInt64 {
        UInt64(view) << 32 | UInt64(UInt8(truncatingIfNeeded: (satellite.signal ?? -1) + 1)) << 24
            | UInt64(UInt32(truncatingIfNeeded: satellite.nmeaID) & 0xFF_FFFF)
    }

    /// The density `signal` had in the last sky, when it was strong.
    private func strongDensity(_ signal: UInt64) -> Double? {
        var low = 0, high = strongSignals.count
        while low < high {
            let middle = (low + high) / 2
            if strongSignals[middle].signal < signal { low = middle + 1 } else { high = middle }
        }
        return low < strongSignals.count && strongSignals[low].signal == signal ? strongSignals[low].density : nil
    }

    /// A check with `thresholds`, naming `source` in its events.
    public init(thresholds: IntegrityThresholds = IntegrityThresholds(), source: String? = nil) {
        self.thresholds = thresholds
        self.source = source
    }

    /// Checks `epoch`, the receiver's next: sets its fix's ``Fix/integrity`` to the checks it
    /// failed, and returns the events (none for most epochs).
    public mutating func check(_ epoch: inout Epoch) -> [IntegrityEvent] {
        var events: [IntegrityEvent] = []
        var flags: IntegrityFlags = []
        var lasting: IntegrityFlags = []
        let time = epoch.withFix(\.time) ?? epoch.sky?.time
        if let sky = epoch.sky, !sky.views.isEmpty {
            checkSignals(sky, time: time, flags: &flags, lasting: &lasting, events: &events)
        } else {
            lasting.formUnion(lastingFlags.intersection(IntegrityFlags(.uniformSignals)))
        }
        epoch.withFix { fix in
            checkRanges(fix, flags: &flags, lasting: &lasting, events: &events)
            guard !fix.isHighRate else { return }
            checkTime(fix, flags: &flags, events: &events)
            checkPosition(fix, flags: &flags, events: &events)
        }
        lastingFlags = lasting
        if !flags.isEmpty, var fix = epoch.fix {
            fix.integrity = flags
            epoch.fix = fix
        }
        return events
    }

    // MARK: The checks

    private mutating func checkRanges(_ fix: Fix, flags: inout IntegrityFlags, lasting: inout IntegrityFlags,
                                      events: inout [IntegrityEvent]) {
        guard fix.mode >= .twoD else { return }
        if fix.mode == .threeD, let altitude = fix.altitudeHAE ?? fix.altitudeMSL,
           // Two comparisons, not a range: limits given the wrong way round flag, never trap.
           altitude < thresholds.minimumAltitude || altitude > thresholds.maximumAltitude {
            flag(.altitudeRange, .altitude(metres: altitude, minimum: thresholds.minimumAltitude, maximum: thresholds.maximumAltitude),
                 time: fix.time, lasting: true, flags: &flags, lastingNow: &lasting, events: &events)
        }
        if let speed = fix.speed, speed > thresholds.maximumSpeed {
            flag(.speedRange, .speed(metresPerSecond: speed, limit: thresholds.maximumSpeed),
                 time: fix.time, lasting: true, flags: &flags, lastingNow: &lasting, events: &events)
        }
    }

    private mutating func checkTime(_ fix: Fix, flags: inout IntegrityFlags, events: inout [IntegrityEvent]) {
        // A receiver's time before it has a fix is its clock's guess (a cold start reports
        // 1980 or its last shutdown): not a step to flag, and not a time to compare with.
        guard fix.mode >= .twoD, let stamp = Self.stamp(fix) else {
            fixesSinceTime += 1
            return
        }
        guard let last = lastTime, last.isTimeOfDay == stamp.isTimeOfDay else {
            lastTime = stamp
            fixesSinceTime = 0
            return
        }
        var moved = stamp.seconds - last.seconds
        if stamp.isTimeOfDay, moved < -43_200 { moved += 86_400 }
        // The same instant told again (two sentences of one epoch whose times differ in the
        // last digit): no new cycle.
        guard moved.magnitude > 0.1 else { return }
        fixesSinceTime += 1
        defer {
            lastTime = stamp
            fixesSinceTime = 0
        }
        let expected: Double
        if let arrival = stamp.arrival, let before = last.arrival {
            expected = arrival - before
        } else if let cycle {
            expected = cycle * Double(fixesSinceTime)
        } else {
            if fixesSinceTime == 1, moved > 0, moved <= 60 { cycle = moved }
            return
        }
        if (moved - expected).magnitude > thresholds.timeStepTolerance {
            flags.insert(IntegrityFlags(.timeStep))
            events.append(event(.timeStep, .timeStep(seconds: moved, expected: expected), time: fix.time))
        } else if fixesSinceTime == 1, moved > 0, moved <= 60 {
            cycle = moved
        }
    }

    private mutating func checkPosition(_ fix: Fix, flags: inout IntegrityFlags, events: inout [IntegrityEvent]) {
        guard fix.mode >= .twoD, let latitude = fix.latitude, let longitude = fix.longitude else {
            lastPosition = nil
            return
        }
        let position = Position(latitude: latitude, longitude: longitude, seconds: Self.stamp(fix)?.seconds,
                                speed: fix.speed, error: fix.errorEstimates.horizontal)
        defer { lastPosition = position }
        guard let last = lastPosition, let seconds = position.seconds, let before = last.seconds else { return }
        let elapsed = seconds - before
        // Two fixes of one second, or far apart: nothing to judge a speed by.
        guard elapsed > 0, elapsed <= max(5, 5 * (cycle ?? 1)) else { return }
        let metres = nearbyDistance(last.latitude, last.longitude, latitude, longitude)
        let speed = if let now = position.speed, let then = last.speed { max(now, then) } else { thresholds.maximumSpeed }
        let allowed = (speed * thresholds.jumpSpeedFactor + thresholds.jumpSpeedSlack) * elapsed + thresholds.jumpNoise
            + (position.error ?? 0) + (last.error ?? 0)
        guard metres > allowed else { return }
        flags.insert(IntegrityFlags(.positionJump))
        events.append(event(.positionJump, .positionJump(metres: metres, seconds: elapsed, allowed: allowed), time: fix.time))
    }

    private mutating func checkSignals(_ sky: Sky, time: UTCTime?, flags: inout IntegrityFlags, lasting: inout IntegrityFlags,
                                       events: inout [IntegrityEvent]) {
        var count = 0, sum = 0.0, sumOfSquares = 0.0
        var strong = spareSignals, views = spareViews
        spareSignals = []
        spareViews = []
        strong.removeAll(keepingCapacity: true)
        views.removeAll(keepingCapacity: true)
        var drop = (satellites: 0, lost: 0, before: 0.0, after: 0.0)
        for view in sky.views {
            let viewKey = Self.view(view)
            let listedBefore = strongViews.contains(viewKey)
            for satellite in view.satellites {
                let density = satellite.snr ?? 0
                if density > 0 {
                    count += 1
                    sum += density
                    sumOfSquares += density * density
                }
                guard density >= thresholds.lossStrongCN0 || listedBefore else { continue }
                let signal = Self.signal(satellite, in: viewKey)
                if density >= thresholds.lossStrongCN0 {
                    strong.append((signal, density))
                    if views.last != viewKey { views.append(viewKey) }
                }
                if listedBefore, let before = strongDensity(signal) {
                    drop.satellites += 1
                    drop.before += before
                    drop.after += density
                    if density == 0 { drop.lost += 1 }
                }
            }
        }
        strong.sort { $0.signal < $1.signal }
        if count >= thresholds.uniformMinimumSatellites {
            let mean = sum / Double(count)
            let spread = max(0, sumOfSquares / Double(count) - mean * mean).squareRoot()
            if mean >= thresholds.uniformMinimumCN0, spread <= thresholds.uniformMaximumSpread {
                flag(.uniformSignals, .uniformSignals(satellites: count, mean: mean, spread: spread),
                     time: time, lasting: true, flags: &flags, lastingNow: &lasting, events: &events)
            }
        }
        if drop.satellites >= thresholds.lossMinimumSatellites {
            let before = drop.before / Double(drop.satellites), after = drop.after / Double(drop.satellites)
            if before - after >= thresholds.lossDrop {
                flags.insert(IntegrityFlags(.signalLoss))
                events.append(event(.signalLoss, .signalLoss(satellites: drop.satellites, lost: drop.lost, before: before, after: after),
                                    time: time))
            }
        }
        spareSignals = strongSignals
        spareViews = strongViews
        strongSignals = strong
        strongViews = views
    }

    // MARK: Helpers

    /// Flags `kind`; an event unless it is a lasting kind already flagged on the epoch before.
    private func flag(_ kind: IntegrityKind, _ evidence: IntegrityEvent.Evidence, time: UTCTime?, lasting: Bool,
                      flags: inout IntegrityFlags, lastingNow: inout IntegrityFlags, events: inout [IntegrityEvent]) {
        flags.insert(IntegrityFlags(kind))
        if lasting { lastingNow.insert(IntegrityFlags(kind)) }
        if !lasting || !lastingFlags.contains(kind) { events.append(event(kind, evidence, time: time)) }
    }

    private func event(_ kind: IntegrityKind, _ evidence: IntegrityEvent.Evidence, time: UTCTime?) -> IntegrityEvent {
        IntegrityEvent(kind, evidence, time: time, source: source)
    }

    /// The fix's time in seconds, and its arrival; `nil` when it has no time.
    private static func stamp(_ fix: Fix) -> Stamp? {
        let arrival = fix.receivedAt?.secondsSince1970
        if let time = fix.time { return Stamp(seconds: time.secondsSince1970, isTimeOfDay: false, arrival: arrival) }
        guard let timeOfDay = fix.timeOfDay else { return nil }
        return Stamp(seconds: Double(timeOfDay.nanosecondsSinceMidnight) / 1e9, isTimeOfDay: true, arrival: arrival)
    }
}
