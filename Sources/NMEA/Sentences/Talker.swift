/// The two-letter talker identifier that starts a standard sentence's address (`GP` in `GPGGA`).
public struct Talker: Sendable, Hashable, CustomStringConvertible {
    /// The two ASCII bytes, first byte in the high half.
    public let code: UInt16

    /// Creates a talker from its two ASCII bytes.
    @inlinable
    public init(_ first: UInt8, _ second: UInt8) { code = UInt16(first) << 8 | UInt16(second) }

    /// Creates a talker from a two-letter string; `nil` unless it is two ASCII characters.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 2, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.init(bytes[0], bytes[1])
    }

    /// GPS.
    public static let gps = Talker(UInt8(ascii: "G"), UInt8(ascii: "P"))
    /// GLONASS.
    public static let glonass = Talker(UInt8(ascii: "G"), UInt8(ascii: "L"))
    /// Galileo.
    public static let galileo = Talker(UInt8(ascii: "G"), UInt8(ascii: "A"))
    /// BeiDou, NMEA 4.10 spelling.
    public static let beidou = Talker(UInt8(ascii: "G"), UInt8(ascii: "B"))
    /// BeiDou, the spelling of older Chinese receivers.
    public static let beidouLegacy = Talker(UInt8(ascii: "B"), UInt8(ascii: "D"))
    /// QZSS, NMEA 4.11 spelling.
    public static let qzss = Talker(UInt8(ascii: "G"), UInt8(ascii: "Q"))
    /// QZSS, the spelling of some u-blox and Quectel firmware.
    public static let qzssLegacy = Talker(UInt8(ascii: "Q"), UInt8(ascii: "Z"))
    /// NavIC (IRNSS).
    public static let navic = Talker(UInt8(ascii: "G"), UInt8(ascii: "I"))
    /// Several constellations combined.
    public static let combined = Talker(UInt8(ascii: "G"), UInt8(ascii: "N"))

    /// The constellation this talker speaks for, or `nil` for combined (`GN`) and non-GNSS talkers.
    public var constellation: Constellation? {
        switch self {
        case .gps: .gps
        case .glonass: .glonass
        case .galileo: .galileo
        case .beidou, .beidouLegacy: .beidou
        case .qzss, .qzssLegacy: .qzss
        case .navic: .navic
        default: nil
        }
    }

    /// The two letters.
    public var description: String {
        // Written in place: a string this short is stored inline, with no allocation.
        String(unsafeUninitializedCapacity: 2) { buffer in
            buffer[0] = UInt8(code >> 8)
            buffer[1] = UInt8(code & 0xFF)
            return 2
        }
    }
}

/// The three-letter sentence formatter that follows the talker (`GGA` in `GPGGA`).
public struct SentenceFormatter: Sendable, Hashable, CustomStringConvertible {
    /// The three ASCII bytes, first byte highest.
    public let code: UInt32

    /// Creates a formatter from its three ASCII bytes.
    @inlinable
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8) { code = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) }

    /// Creates a formatter from its three letters, such as `("G", "G", "A")`: a constant the
    /// compiler folds, as it does not fold one read from a string.
    @inlinable
    public init(_ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar) {
        code = a.value << 16 | b.value << 8 | c.value
    }

    /// The three letters.
    public var description: String {
        String(unsafeUninitializedCapacity: 3) { buffer in
            buffer[0] = UInt8(code >> 16)
            buffer[1] = UInt8(code >> 8 & 0xFF)
            buffer[2] = UInt8(code & 0xFF)
            return 3
        }
    }
}

/// A satellite navigation system.
public enum Constellation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// GPS (USA).
    case gps
    /// Satellite-based augmentation systems: WAAS, EGNOS, MSAS, GAGAN.
    case sbas
    /// Galileo (EU).
    case galileo
    /// BeiDou (China).
    case beidou
    /// IMES (indoor messaging, Japan).
    case imes
    /// QZSS (Japan).
    case qzss
    /// GLONASS (Russia).
    case glonass
    /// NavIC / IRNSS (India).
    case navic

    /// The u-blox / gpsd `gnssid` number: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 4 IMES, 5 QZSS,
    /// 6 GLONASS, 7 NavIC.
    public var gnssID: Int { rawValue }

    /// The constellation of an NMEA 4.10 system ID (GSA field 18, GSV's talker): 1 GPS,
    /// 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC; `nil` for others.
    public init?(nmeaSystemID: Int) {
        switch nmeaSystemID {
        case 1: self = .gps
        case 2: self = .glonass
        case 3: self = .galileo
        case 4: self = .beidou
        case 5: self = .qzss
        case 6: self = .navic
        default: return nil
        }
    }

    /// A short name: `GPS`, `SBAS`, `Galileo`, `BeiDou`, `IMES`, `QZSS`, `GLONASS`, `NavIC`.
    public var description: String {
        switch self {
        case .gps: "GPS"
        case .sbas: "SBAS"
        case .galileo: "Galileo"
        case .beidou: "BeiDou"
        case .imes: "IMES"
        case .qzss: "QZSS"
        case .glonass: "GLONASS"
        case .navic: "NavIC"
        }
    }
}
