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
