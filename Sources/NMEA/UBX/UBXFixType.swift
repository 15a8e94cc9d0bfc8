/// What a u-blox receiver's fix is, as NAV-PVT and NAV-SOL say it.
public enum UBXFixType: UInt8, Sendable, Hashable, CaseIterable {
    /// No fix.
    case noFix = 0
    /// Dead reckoning only (a receiver with sensors, no satellites).
    case deadReckoning = 1
    /// A 2D fix: no altitude.
    case fix2D = 2
    /// A 3D fix.
    case fix3D = 3
    /// Satellites and dead reckoning together.
    case satellitesAndDeadReckoning = 4
    /// Time only (a timing receiver held at a surveyed position).
    case timeOnly = 5

    /// Reads the fix type at `offset`, noting a value u-blox never defined.
    static func read(_ payload: UBXPayload, at offset: Int, malformed: inout [MalformedField]) -> UBXFixType? {
        malformed.checking(payload.u1(offset), at: offset, expected: "a fix type from 0 to 5") { $0 <= 5 }
            .flatMap(UBXFixType.init(rawValue:))
    }
}

/// Whether a u-blox receiver's solution uses carrier phase (RTK), from NAV-PVT's flags.
public enum UBXCarrierSolution: UInt8, Sendable, Hashable, CaseIterable {
    /// No carrier phase: an autonomous or a differential (DGPS) fix.
    case none = 0
    /// RTK with floating ambiguities: decimetres.
    case float = 1
    /// RTK with fixed ambiguities: centimetres.
    case fixed = 2
}

/// A satellite system, numbered as UBX numbers it (and as gpsd's `gnssid` does).
public enum UBXSystem: UInt8, Sendable, Hashable, CaseIterable {
    /// GPS.
    case gps = 0
    /// SBAS (WAAS, EGNOS, MSAS, GAGAN).
    case sbas = 1
    /// Galileo.
    case galileo = 2
    /// BeiDou.
    case beidou = 3
    /// IMES (indoor messaging).
    case imes = 4
    /// QZSS.
    case qzss = 5
    /// GLONASS.
    case glonass = 6
    /// NavIC (IRNSS).
    case navic = 7
}

/// A satellite's health as UBX reports it.
public enum UBXHealth: UInt8, Sendable, Hashable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// Healthy.
    case healthy = 1
    /// Unhealthy.
    case unhealthy = 2
}

/// What a u-blox receiver's UBX messages say of an epoch's fix (NAV-PVT, or NAV-SOL from older
/// receivers): its type, and the corrections applied. It decides the fix's ``Fix/mode`` and
/// gpsd's `status` over anything NMEA said of the same epoch.
public struct UBXFixStatus: Sendable, Hashable {
    /// The kind of fix.
    public var fixType: UBXFixType
    /// Whether the fix is within the receiver's configured masks of dilution and accuracy
    /// (`gnssFixOK`). A fix outside them keeps its position and mode, as gpsd reports it: the
    /// masks are the receiver's settings, and the fix's accuracy estimates go with it.
    public var isWithinMasks: Bool
    /// Whether differential corrections (DGPS, SBAS or RTK) were applied.
    public var isDifferential: Bool
    /// Whether the solution uses carrier phase (RTK), and how; `nil` when the receiver does not
    /// say (NAV-SOL, or a value u-blox never defined).
    public var carrierSolution: UBXCarrierSolution?

    /// A status as given.
    public init(fixType: UBXFixType, isWithinMasks: Bool, isDifferential: Bool, carrierSolution: UBXCarrierSolution? = nil) {
        self.fixType = fixType
        self.isWithinMasks = isWithinMasks
        self.isDifferential = isDifferential
        self.carrierSolution = carrierSolution
    }

    /// The fix's dimension, as gpsd takes it: dead reckoning alone counts as 2D; satellites with
    /// dead reckoning, and a timing receiver's surveyed position, as 3D.
    public var mode: FixMode {
        switch fixType {
        case .noFix: .noFix
        case .deadReckoning, .fix2D: .twoD
        case .fix3D, .satellitesAndDeadReckoning, .timeOnly: .threeD
        }
    }

    /// gpsd's `status`: 0 no fix, 1 autonomous, 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead
    /// reckoning, 6 satellites with dead reckoning, 7 time only (surveyed in).
    public var gpsdStatus: Int {
        switch fixType {
        case .noFix: return 0
        case .timeOnly: return 7
        case .deadReckoning, .fix2D, .fix3D, .satellitesAndDeadReckoning:
            if isDifferential {
                switch carrierSolution {
                case .fixed: return 3
                case .float: return 4
                case .some(.none), nil: return 2
                }
            }
            switch fixType {
            case .deadReckoning: return 5
            case .satellitesAndDeadReckoning: return 6
            default: return 1
            }
        }
    }
}
