/// A kind of integrity check: what a fix, or a receiver's sky, looked wrong by.
public enum IntegrityKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The position moved farther than the receiver's own speed (or the speed limit) allows.
    case positionJump
    /// The receiver's time moved by more than the clock it is compared with (the system clock,
    /// else its own cycle).
    case timeStep
    /// The altitude is outside the physical range.
    case altitudeRange
    /// The speed is over the physical limit.
    case speedRange
    /// Many satellites with a high carrier-to-noise density that hardly differs: one
    /// transmitter, a spoofer, rather than satellites at their several elevations.
    case uniformSignals
    /// Every strong signal dropped at once: a jammer (or an obstruction).
    case signalLoss
    /// Two receivers on one platform disagree by more than their error estimates.
    case disagreement

    /// The name gpsd clients see in a report's `integrity` list, and the command line uses:
    /// `position-jump`, `time-step`, `altitude-range`, `speed-range`, `uniform-cn0`,
    /// `signal-loss`, `disagreement`.
    public var description: String {
        switch self {
        case .positionJump: "position-jump"
        case .timeStep: "time-step"
        case .altitudeRange: "altitude-range"
        case .speedRange: "speed-range"
        case .uniformSignals: "uniform-cn0"
        case .signalLoss: "signal-loss"
        case .disagreement: "disagreement"
        }
    }
}

/// The integrity checks a fix failed (``Fix/integrity``): one bit per ``IntegrityKind``, so that
/// a fix carries them in a byte.
public struct IntegrityFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// One bit per kind, at its ``IntegrityKind/rawValue``.
    public var rawValue: UInt8
    /// The flags of `rawValue`'s bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The flag of `kind`.
    public init(_ kind: IntegrityKind) { rawValue = 1 << kind.rawValue }

    /// The kinds flagged, in ``IntegrityKind``'s order.
    public var kinds: [IntegrityKind] { IntegrityKind.allCases.filter { contains(IntegrityFlags($0)) } }

    /// Whether `kind` is flagged.
    public func contains(_ kind: IntegrityKind) -> Bool { contains(IntegrityFlags(kind)) }

    /// The kinds' names, comma-separated; `none` when there is none.
    public var description: String { isEmpty ? "none" : kinds.map(\.description).joined(separator: ",") }
}
