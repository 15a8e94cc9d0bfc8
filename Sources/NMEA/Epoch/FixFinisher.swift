/// Turns a merged epoch into the ``Fix`` that is handed out: its mode from the evidence, no
/// position or altitude that the mode says is not there, its full time, the climb and speed
/// derived from the epoch delivered before it, and then (once its sky is known) its error
/// estimates.
struct FixFinisher: Sendable {
    /// The epoch delivered before the last one delivered, and the last one: a revised epoch
    /// (delivered again with the same time) takes its mode, climb and speed from the same
    /// epoch as its first delivery did.
    private var previous: FixReference?
    private var lastDelivered: FixReference?
    private var magneticModel = MagneticVariationCache()
    /// The same two, for the high-rate fixes (HNR-PVT): a lineage of their own, as they
    /// interleave with the navigation epochs and run ahead of them in time.
    private var highRatePrevious: FixReference?
    private var highRateLastDelivered: FixReference?

    /// Writes the fix `epoch` makes into `out` (in place: the assembler builds it in the box
    /// it hands out). `epoch` is not changed: `inout` only because a borrowed property of the
    /// assembler was copied whole (1.5 KB) at each call, and an `inout` one is not.
    mutating func finish(_ epoch: inout EpochAccumulator, into out: inout Fix) {
        out = epoch.fix
        if out.altitudeMSL == nil { out.altitudeMSL = epoch.garminAltitude }
        if out.satellitesUsed == nil { out.satellitesUsed = epoch.usedCount }
        if out.timeOfDay == nil { out.timeOfDay = epoch.clockTime }
        if let time = out.timeOfDay { out.time = epoch.dates.resolve(time) }
        // Read in place: the fields are hundreds of bytes, and most epochs have none.
        if !epoch.ubx.isEmpty { epoch.ubx.overlay(onto: &out, leapSeconds: epoch.ubxClock.leapSeconds) }
        complete(&out, evidence: epoch.mode)
    }

    /// Finishes a high-rate fix (HNR-PVT's), whose fields are already in `out`, error
    /// estimates included: there is no sky to wait for.
    mutating func finishHighRate(_ out: inout Fix) {
        swap(&previous, &highRatePrevious)
        swap(&lastDelivered, &highRateLastDelivered)
        complete(&out, evidence: ModeEvidence())
        estimateErrors(&out) { nil }
        swap(&previous, &highRatePrevious)
        swap(&lastDelivered, &highRateLastDelivered)
    }

    /// What every fix goes through once its fields are merged: the mode, and what follows
    /// from the mode, the time and the fix before.
    @inline(__always)
    private mutating func complete(_ out: inout Fix, evidence: ModeEvidence) {
        let revision = out.time != nil && lastDelivered?.time == out.time
        if !revision { previous = lastDelivered }
        if let status = out.ubxStatus {
            out.mode = status.mode
        } else {
            out.mode = evidence.mode(previous: previous?.mode ?? .unknown)
        }
        if out.mode == .noFix {
            // A receiver that says it has no fix may still send its last position; it is not a fix.
            out.latitude = nil
            out.longitude = nil
            out.speed = nil
            out.track = nil
            out.magneticTrack = nil
        }
        // A receiver that sends none, or 0.0 (what many send for "unknown", as gpsd takes it):
        // the World Magnetic Model's, as gpsd fills it from its table of the model.
        if out.magneticVariation.map({ abs($0) <= 0.09 }) ?? true, let time = out.time,
           let latitude = out.latitude, let longitude = out.longitude,
           let model = magneticModel.declination(latitude: latitude, longitude: longitude, at: time) {
            out.magneticVariation = model
        }
        if out.magneticTrack == nil, let track = out.track, let variation = out.magneticVariation {
            let magnetic = (track - variation).truncatingRemainder(dividingBy: 360)
            out.magneticTrack = magnetic < 0 ? magnetic + 360 : magnetic
        }
        // A UBX receiver's altitude in a 2D fix is the one it held fixed: gpsd reports it, and
        // so does nmeastream (an NMEA 2D fix has none to report).
        if out.mode < .threeD, out.mode != .unknown, out.ubxStatus == nil || out.mode == .noFix {
            out.altitudeMSL = nil
            out.geoidSeparation = nil
            out.altitudeHAE = nil
        }
        if let time = out.time, let previous, let before = previous.time { derive(&out, at: time, from: previous, at: before) }
        lastDelivered = FixReference(time: out.time, mode: out.mode, altitude: out.altitudeMSL, latitude: out.latitude,
                                  longitude: out.longitude)
    }

    /// Sets the error estimates of `out`, the fix ``finish(_:into:)`` just made, whose epoch's
    /// satellites lie as `geometry` says (asked only when needed).
    mutating func estimateErrors(_ out: inout Fix, geometry: () -> Dilutions?) {
        out.errorEstimates = ErrorEstimates(for: out, geometry: geometry, previous: previous)
        lastDelivered?.estimates = out.errorEstimates
    }

    /// Climb from the change of altitude, and, when no sentence gave a speed, speed from the
    /// distance travelled (as gpsd does).
    private func derive(_ out: inout Fix, at time: UTCTime, from previous: FixReference, at before: UTCTime) {
        let seconds = time.secondsSince1970 - before.secondsSince1970
        guard seconds > 0 else { return }
        if let altitude = out.altitudeMSL, let earlier = previous.altitude {
            out.climb = (altitude - earlier) / seconds
        }
        if out.speed == nil, let latitude = out.latitude, let longitude = out.longitude,
           let beforeLatitude = previous.latitude, let beforeLongitude = previous.longitude {
            out.speed = ellipsoidDistance(beforeLatitude, beforeLongitude, latitude, longitude) / seconds
        }
    }
}

/// What a delivered fix leaves for finishing the next one: its mode, and what the next one's
/// climb, derived speed and rate errors are worked out from.
struct FixReference: Sendable {
    var time: UTCTime?
    var mode: FixMode
    @CompactDouble var altitude: Double? = nil
    @CompactDouble var latitude: Double? = nil
    @CompactDouble var longitude: Double? = nil
    var estimates = ErrorEstimates()
}
