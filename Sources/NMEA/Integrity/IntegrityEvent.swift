/// A fix or sky that failed an integrity check, with the evidence: reported, never applied
/// (the fix is still reported, with the check's flag in ``Fix/integrity``).
public struct IntegrityEvent: Sendable, Hashable, CustomStringConvertible {
    /// What was found, with its figures.
    public enum Evidence: Sendable, Hashable {
        /// Moved `metres` in `seconds`, where at most `allowed` metres were possible.
        case positionJump(metres: Double, seconds: Double, allowed: Double)
        /// The receiver's time moved `seconds` where the clock it is compared with moved
        /// `expected` seconds.
        case timeStep(seconds: Double, expected: Double)
        /// An altitude, metres, outside `minimum...maximum`.
        case altitude(metres: Double, minimum: Double, maximum: Double)
        /// A speed, m/s, over `limit`.
        case speed(metresPerSecond: Double, limit: Double)
        /// `satellites` signals with a mean density of `mean` dB-Hz and a standard deviation of
        /// only `spread`.
        case uniformSignals(satellites: Int, mean: Double, spread: Double)
        /// `satellites` strong signals whose mean density fell from `before` to `after` dB-Hz in
        /// one epoch, `lost` of them to nothing.
        case signalLoss(satellites: Int, lost: Int, before: Double, after: Double)
        /// `metres` from receiver `other`'s fix of the same second, where their error estimates
        /// and the antennas' separation allow `allowed`.
        case disagreement(other: String, metres: Double, allowed: Double)
    }

    /// The check failed.
    public var kind: IntegrityKind
    /// What it found.
    public var evidence: Evidence
    /// The time of the fix (or sky) that failed it; `nil` when it had none.
    public var time: UTCTime?
    /// The receiver it concerns (its device path or name) where the source of the events
    /// names it; `nil` otherwise.
    public var source: String?

    /// An event of `kind`.
    public init(_ kind: IntegrityKind, _ evidence: Evidence, time: UTCTime?, source: String? = nil) {
        self.kind = kind
        self.evidence = evidence
        self.time = time
        self.source = source
    }

    /// `position-jump at 2026-01-01T00:00:01Z: moved 1523 m in 1 s, at most 42 m possible`.
    public var description: String {
        var text = kind.description
        if let source { text += " on \(source)" }
        if let time { text += " at \(time)" }
        return text + ": " + explanation
    }

    /// The evidence in words.
    public var explanation: String {
        switch evidence {
        case .positionJump(let metres, let seconds, let allowed):
            return "moved \(fixedPoint(metres, decimals: 0)) m in \(fixedPoint(seconds, decimals: 3)) s, at most \(fixedPoint(allowed, decimals: 0)) m possible"
        case .timeStep(let seconds, let expected):
            return "time moved \(fixedPoint(seconds, decimals: 3)) s where the clock moved \(fixedPoint(expected, decimals: 3)) s"
        case .altitude(let metres, let minimum, let maximum):
            return "altitude \(fixedPoint(metres, decimals: 0)) m, outside \(fixedPoint(minimum, decimals: 0))...\(fixedPoint(maximum, decimals: 0)) m"
        case .speed(let speed, let limit):
            return "speed \(fixedPoint(speed, decimals: 1)) m/s, over \(fixedPoint(limit, decimals: 0)) m/s"
        case .uniformSignals(let satellites, let mean, let spread):
            return "\(satellites) signals at \(fixedPoint(mean, decimals: 1)) dB-Hz, within \(fixedPoint(spread, decimals: 2)) dB-Hz of each other"
        case .signalLoss(let satellites, let lost, let before, let after):
            return "\(satellites) strong signals fell from \(fixedPoint(before, decimals: 1)) to \(fixedPoint(after, decimals: 1)) dB-Hz, \(lost) lost"
        case .disagreement(let other, let metres, let allowed):
            return "\(fixedPoint(metres, decimals: 0)) m from \(other), at most \(fixedPoint(allowed, decimals: 0)) m allowed"
        }
    }
}
