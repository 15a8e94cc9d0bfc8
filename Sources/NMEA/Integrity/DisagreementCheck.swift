/// The integrity check across receivers on one platform: a pure state machine told each
/// receiver's fixes, which flags a fix that lies farther from another receiver's fix of the
/// same instant than both their horizontal errors and the antennas' separation
/// (``IntegrityThresholds/antennaSeparation``) allow. A receiver's error is its estimate
/// (gpsd's `eph`), else its HDOP times ``IntegrityThresholds/errorPerHDOP``; a receiver with
/// neither is not compared.
///
/// It cannot tell which of two is wrong: the fix that arrives second is flagged, and the
/// event names both. While a pair keeps disagreeing, each of their fixes is flagged, and the
/// event comes once, when it starts.
public struct DisagreementCheck: Sendable {
    /// The limits.
    public var thresholds: IntegrityThresholds
    /// The receivers' names, in their order.
    public let names: [String]

    private var latest: [Reported?]
    /// The pairs (lower index first) that disagreed at their last comparison.
    private var disagreeing: Set<[Int]> = []

    private struct Reported {
        var seconds: Double
        var latitude: Double, longitude: Double
        var error: Double
    }

    /// A check of the receivers named `names`.
    public init(names: [String], thresholds: IntegrityThresholds = IntegrityThresholds()) {
        self.names = names
        self.thresholds = thresholds
        latest = Array(repeating: nil, count: names.count)
    }

    /// Receiver `receiver`'s fix: compared with the others' latest fixes of the same instant
    /// (within 50 ms). Returns ``IntegrityKind/disagreement`` when it disagrees with one, and
    /// the events that start.
    public mutating func take(_ fix: Fix, from receiver: Int) -> (flags: IntegrityFlags, events: [IntegrityEvent]) {
        guard latest.indices.contains(receiver) else { return ([], []) }
        guard fix.mode >= .twoD, !fix.isHighRate, let latitude = fix.latitude, let longitude = fix.longitude,
              let seconds = fix.time?.secondsSince1970,
              let error = fix.errorEstimates.horizontal ?? fix.hdop.map({ $0 * thresholds.errorPerHDOP }) else {
            latest[receiver] = nil
            return ([], [])
        }
        let now = Reported(seconds: seconds, latitude: latitude, longitude: longitude, error: error)
        latest[receiver] = now
        var flags: IntegrityFlags = []
        var events: [IntegrityEvent] = []
        for other in latest.indices where other != receiver {
            guard let then = latest[other], (then.seconds - now.seconds).magnitude <= 0.05 else { continue }
            let pair = [min(receiver, other), max(receiver, other)]
            let metres = nearbyDistance(then.latitude, then.longitude, latitude, longitude)
            let allowed = now.error + then.error + thresholds.antennaSeparation
            guard metres > allowed else {
                disagreeing.remove(pair)
                continue
            }
            flags.insert(IntegrityFlags(.disagreement))
            if disagreeing.insert(pair).inserted {
                events.append(IntegrityEvent(.disagreement, .disagreement(other: names[other], metres: metres, allowed: allowed),
                                             time: fix.time, source: names[receiver]))
            }
        }
        return (flags, events)
    }
}
