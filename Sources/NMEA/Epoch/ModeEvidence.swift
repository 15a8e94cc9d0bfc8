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
