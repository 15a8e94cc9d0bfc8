/// Garmin's proprietary `$PGRMZ`: altitude, in feet or metres, and the fix dimension.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. The altitude fails with its unit.
public struct PGRMZ: Sendable, Hashable {
    /// Altitude above mean sea level, metres (converted from feet when the unit is `f`);
    /// `nil` when empty.
    @CompactDouble public var altitude: Double?
    /// Fix dimension: 2 (user altitude) or 3 (GPS altitude); `nil` when empty.
    public var dimension: Int?

    /// Creates a PGRMZ value.
    public init(altitude: Double? = nil, dimension: Int? = nil) {
        self.altitude = altitude
        self.dimension = dimension
    }

    /// Decodes `$PGRMZ,x.x,f,d` (`f` feet or `M` metres).
    public init(_ raw: RawSentence, malformed: inout [MalformedField]) {
        altitude = malformed.reading(try raw.decimal(1), qualifiedBy: try Self.unit(raw)) { value, unit in
            unit == UInt8(ascii: "f") || unit == UInt8(ascii: "F") ? value * 0.3048 : value
        }
        dimension = malformed.reading(try raw.integer(3))
    }

    /// The altitude's unit: `f` feet or `M` metres, in either case; `nil` (metres) when empty.
    private static func unit(_ raw: RawSentence) throws(MalformedField) -> UInt8? {
        switch try raw.character(2) {
        case let unit? where [UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "m"), UInt8(ascii: "M")].contains(unit): unit
        case nil: nil
        default: throw MalformedField(2, expected: "the unit f or M")
        }
    }
}

extension PGRMZ: SentenceType {
    var sentenceTalker: Talker? { nil }
    var sentence: NMEASentence { .pgrmz(self) }

    /// Feet-resolution altitude: used only when the epoch has no GGA or GNS altitude.
    func apply(to epoch: inout EpochAccumulator) { epoch.garminAltitude = altitude ?? epoch.garminAltitude }
}
