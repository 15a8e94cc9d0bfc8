/// What the sentences of an epoch said about its fix, and the mode that follows from it by the
/// precedence of fix indicators written out in ``EpochAssembler``'s documentation.
struct ModeEvidence: Sendable {
    /// What a position sentence (GGA, GNS, RMC, GLL) says of its own position.
    enum Verdict: Sendable {
        /// Its indicators mark the position valid: GGA quality 1 to 8, RMC/GLL status `A`
        /// with a mode indicator that is not `N`, a GNS mode field with a mode that is not `N`.
        case valid
        /// Its indicators say there is no fix: GGA quality 0, RMC/GLL status `V` or mode
        /// indicator `N`, GNS modes all `N`.
        case invalid
        /// It has no indicator (every one empty or malformed).
        case silent
    }

    /// A position sentence marked its position valid and gave it.
    private var valid = false
    /// A position sentence said there is no fix, or marked valid a position it did not give.
    private var invalid = false
    /// A position sentence without indicators gave a position.
    private var unmarked = false
    /// Whether a GGA or GNS whose position counts gave an altitude; `nil` when none did count.
    private var solutionAltitude: Bool?
    /// The fix type of the epoch's last GSA.
    private var gsa: FixMode?

    /// Notes what a position sentence said. `altitude` is whether a GGA or GNS gave an altitude
    /// (`nil` for RMC and GLL, which carry none).
    mutating func position(_ verdict: Verdict, hasPosition: Bool, altitude: Bool? = nil) {
        switch verdict {
        case .valid where hasPosition: valid = true
        case .valid, .invalid: invalid = true
        case .silent where hasPosition: unmarked = true
        case .silent: return
        }
        if verdict != .invalid, hasPosition, let altitude {
            solutionAltitude = (solutionAltitude ?? false) || altitude
        }
    }

    /// Notes a GSA fix type (1 no fix, 2 2D, 3 3D).
    mutating func fixType(_ type: Int?) {
        guard let type else { return }
        gsa = type == 3 ? .threeD : type == 2 ? .twoD : .noFix
    }

    /// The epoch's mode. `previous` is the mode of the epoch before: when only RMC or GLL give
    /// the fix, and no GSA its dimension, a receiver that was in 3D stays in 3D.
    func mode(previous: FixMode) -> FixMode {
        if valid || (unmarked && !invalid) {
            if let solutionAltitude { return solutionAltitude ? .threeD : .twoD }
            if let gsa, gsa != .noFix { return gsa }
            return previous == .threeD ? .threeD : .twoD
        }
        if invalid { return .noFix }
        return gsa ?? .unknown
    }
}

extension ModeEvidence.Verdict {
    /// The verdict of a status flag (`A` `true`, `V` `false`) and a mode indicator, as RMC and
    /// GLL send them: either one saying invalid decides.
    init(status: Bool?, mode: PositioningMode?) {
        if status == false || mode == .notValid {
            self = .invalid
        } else if status == nil && mode == nil {
            self = .silent
        } else {
            self = .valid
        }
    }
}
