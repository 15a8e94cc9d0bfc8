/// Turns a merged epoch into the ``Fix`` that is handed out: its mode from the evidence, no
/// position or altitude that the mode says is not there, its full time, and the climb and
/// speed derived from the epoch delivered before it.
struct FixFinisher: Sendable {
    /// What an epoch leaves for deriving the next one's climb and speed.
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

    /// The fix `epoch` makes.
    mutating func finish(_ epoch: borrowing EpochAccumulator) -> Fix {
        var out = epoch.fix
        if out.altitudeMSL == nil { out.altitudeMSL = epoch.garminAltitude }
        if out.satellitesUsed == nil { out.satellitesUsed = epoch.usedCount }
        out.mode = epoch.mode.mode(previous: previousMode)
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
        if let time = out.timeOfDay { out.time = epoch.dates.resolve(time) }
        if let time = out.time {
            if lastDelivered?.time != time { previous = lastDelivered }
            if let previous { derive(&out, at: time, from: previous) }
            lastDelivered = Reference(time: time, altitude: out.altitudeMSL, latitude: out.latitude, longitude: out.longitude)
        }
        return out
    }

    /// Climb from the change of altitude, and, when no sentence gave a speed, speed from the
    /// distance travelled (as gpsd does).
    private func derive(_ out: inout Fix, at time: UTCTime, from previous: Reference) {
        let seconds = time.secondsSince1970 - previous.time.secondsSince1970
        guard seconds > 0 else { return }
        if let altitude = out.altitudeMSL, let before = previous.altitude {
            out.climb = (altitude - before) / seconds
        }
        if out.speed == nil, let latitude = out.latitude, let longitude = out.longitude,
           let beforeLatitude = previous.latitude, let beforeLongitude = previous.longitude {
            out.speed = ellipsoidDistance(beforeLatitude, beforeLongitude, latitude, longitude) / seconds
        }
    }
}
