/// How good a fix is, in the steps that decide between receivers before their error
/// estimates do: a valid fix over none, a trusted fix over a suspect one, RTK fixed over RTK
/// float over DGPS over autonomous, 3D over 2D. Compared in that order.
public struct FixClass: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whether the fix is 2D or 3D.
    public var isValid: Bool
    /// Whether it passed its receiver's integrity checks (``Fix/integrity`` has nothing but a
    /// disagreement, which cannot tell which of two receivers is wrong).
    public var isTrusted: Bool
    /// What corrections made it: 3 RTK fixed, 2 RTK float, 1 DGPS, 0 none (from gpsd's
    /// status, so GGA's quality or UBX's carrier solution).
    public var corrections: Int
    /// Whether it is 3D.
    public var is3D: Bool

    /// The class of `fix`.
    public init(_ fix: Fix) {
        isValid = fix.mode >= .twoD
        isTrusted = fix.integrity.subtracting(IntegrityFlags(.disagreement)).isEmpty
        corrections = switch fix.gpsdStatus {
        case 3?: 3
        case 4?: 2
        case 2?: 1
        default: 0
        }
        is3D = fix.mode == .threeD
    }

    public static func < (lhs: FixClass, rhs: FixClass) -> Bool {
        (lhs.isValid ? 1 : 0, lhs.isTrusted ? 1 : 0, lhs.corrections, lhs.is3D ? 1 : 0)
            < (rhs.isValid ? 1 : 0, rhs.isTrusted ? 1 : 0, rhs.corrections, rhs.is3D ? 1 : 0)
    }

    /// `no fix`, or the dimension and the corrections, and whether it is suspect:
    /// `3D RTK fixed`, `2D (suspect)`.
    public var description: String {
        guard isValid else { return "no fix" }
        let corrections = ["", " DGPS", " RTK float", " RTK fixed"][self.corrections]
        return (is3D ? "3D" : "2D") + corrections + (isTrusted ? "" : " (suspect)")
    }
}

extension Fix {
    /// The horizontal error that ranks receivers of one class: the error estimate (gpsd's
    /// `eph`, metres), else the HDOP; `nil` when neither is known (ranked last).
    var rankingError: Double? { errorEstimates.horizontal ?? hdop }
}
