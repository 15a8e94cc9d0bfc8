/// GGA's fix quality indicator (field 6).
public enum FixQuality: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0: no fix.
    case invalid = 0
    /// 1: autonomous GNSS fix.
    case gps = 1
    /// 2: differential (DGPS, SBAS).
    case dgps = 2
    /// 3: PPS (precise positioning service).
    case pps = 3
    /// 4: RTK with fixed integer ambiguities.
    case rtkFixed = 4
    /// 5: RTK with float ambiguities.
    case rtkFloat = 5
    /// 6: estimated (dead reckoning).
    case estimated = 6
    /// 7: manual input.
    case manual = 7
    /// 8: simulator.
    case simulated = 8

    /// A short name such as `rtk-fixed`.
    public var description: String {
        switch self {
        case .invalid: "invalid"
        case .gps: "gps"
        case .dgps: "dgps"
        case .pps: "pps"
        case .rtkFixed: "rtk-fixed"
        case .rtkFloat: "rtk-float"
        case .estimated: "estimated"
        case .manual: "manual"
        case .simulated: "simulated"
        }
    }
}

/// The NMEA 2.3+ positioning mode indicator (RMC, GLL, VTG, and per system in GNS).
public enum PositioningMode: UInt8, Sendable, Hashable, CaseIterable {
    /// `A`: autonomous.
    case autonomous = 65
    /// `D`: differential.
    case differential = 68
    /// `E`: estimated (dead reckoning).
    case estimated = 69
    /// `F`: RTK float.
    case rtkFloat = 70
    /// `M`: manual input.
    case manual = 77
    /// `N`: no fix, data not valid.
    case notValid = 78
    /// `P`: precise.
    case precise = 80
    /// `R`: RTK fixed.
    case rtkFixed = 82
    /// `S`: simulator.
    case simulator = 83

    /// Whether the mode stands for a usable position.
    public var isValid: Bool { self != .notValid }
}

/// The NMEA 4.10 navigational status (RMC field 13, GNS field 13).
public enum NavigationalStatus: UInt8, Sendable, Hashable, CaseIterable {
    /// `S`: safe.
    case safe = 83
    /// `C`: caution.
    case caution = 67
    /// `U`: unsafe.
    case unsafe = 85
    /// `V`: not valid for navigation.
    case notValid = 86
}

/// The metres-per-second value of one knot.
let metresPerSecondPerKnot = 1852.0 / 3600.0

extension RawSentence {
    /// Field `index` read by `read`, then given its meaning by `meaning`: `nil` when empty,
    /// and a problem naming `expected` when it has none. How every coded field is read.
    @inline(__always)
    func coded<Code, Value>(_ index: Int, _ read: (Int) throws(MalformedField) -> Code?, _ meaning: (Code) -> Value?,
                            expected: String) throws(MalformedField) -> Value? {
        guard let code = try read(index) else { return nil }
        guard let value = meaning(code) else { throw MalformedField(index, expected: expected) }
        return value
    }

    /// An NMEA 2.3 mode indicator; `nil` when empty.
    @inline(__always)
    func positioningMode(_ index: Int) throws(MalformedField) -> PositioningMode? {
        try coded(index, character, PositioningMode.init(rawValue:), expected: "a mode indicator A, D, E, F, M, N, P, R or S")
    }

    /// An NMEA 4.10 navigational status; `nil` when empty.
    @inline(__always)
    func navigationalStatus(_ index: Int) throws(MalformedField) -> NavigationalStatus? {
        try coded(index, character, NavigationalStatus.init(rawValue:), expected: "a navigational status S, C, U or V")
    }

    /// A `A`/`V` validity flag: `true` for `A`, `false` for `V`, `nil` when empty.
    @inline(__always)
    func validity(_ index: Int) throws(MalformedField) -> Bool? {
        try coded(index, character, { $0 == UInt8(ascii: "A") ? true : $0 == UInt8(ascii: "V") ? false : nil }, expected: "a status A or V")
    }

    /// A GSA fix type, 1 to 3; `nil` when empty.
    @inline(__always)
    func fixType(_ index: Int) throws(MalformedField) -> Int? {
        try coded(index, integer, { (1...3).contains($0) ? $0 : nil }, expected: "a fix type 1, 2 or 3")
    }

    /// A GGA fix quality, 0 to 8; `nil` when empty.
    @inline(__always)
    func fixQuality(_ index: Int) throws(MalformedField) -> FixQuality? {
        try coded(index, integer, FixQuality.init(rawValue:), expected: "a fix quality 0 to 8")
    }

    /// A value and the unit field after it, which fail together: each malformed one is noted
    /// in `malformed`; `nil` when the value is empty. An empty unit is taken as `unit`.
    @inline(__always)
    func decimal(_ index: Int, in range: ClosedRange<Double>? = nil, unit: UInt8, _ malformed: inout [MalformedField]) -> Double? {
        malformed.reading(try decimal(index, in: range), qualifiedBy: try letter(index + 1, unit, unit, expected: "the unit")) { value, _ in value }
    }

    /// A value in range (any value when `range` is `nil`), or a malformed-field error.
    @inline(__always)
    func decimal(_ index: Int, in range: ClosedRange<Double>?) throws(MalformedField) -> Double? {
        guard let value = try decimal(index) else { return nil }
        guard let range else { return value }
        guard range.contains(value) else {
            throw MalformedField.outOfRange(index, range)
        }
        return value
    }

    /// A signed angle with an `E`/`W` direction field (magnetic variation), which fail
    /// together: east positive, east when the direction is empty. Each malformed one is noted
    /// in `malformed`; `nil` when the value is empty.
    @inline(__always)
    func eastWest(_ index: Int, _ malformed: inout [MalformedField]) -> Double? {
        malformed.reading(
            try decimal(index, in: 0...180),
            qualifiedBy: try letter(index + 1, UInt8(ascii: "E"), UInt8(ascii: "W"), expected: "a direction")
        ) { value, direction in direction == UInt8(ascii: "W") ? -value : value }
    }
}
