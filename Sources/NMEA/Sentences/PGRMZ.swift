/// Garmin's proprietary `$PGRMZ`: altitude, in feet or metres, and the fix dimension.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. The altitude fails with its unit.
public struct PGRMZ: Sendable, Hashable {
    /// Altitude above mean sea level, metres (converted from feet when the unit is `f`);
    /// `nil` when empty.
    public var altitude: Double?
    /// Fix dimension: 2 (user altitude) or 3 (GPS altitude); `nil` when empty.
    public var dimension: Int?

    /// Creates a PGRMZ value.
    public init(altitude: Double? = nil, dimension: Int? = nil) {
        self.altitude = altitude
        self.dimension = dimension
    }

    /// Decodes `$PGRMZ,x.x,f,d` (`f` feet or `M` metres).
    public init(_ raw: RawSentence, malformed: inout [MalformedField]) {
        altitude = malformed.reading(try Self.altitude(raw))
        dimension = malformed.reading(try raw.integer(3))
    }

    /// The altitude and its unit, which fail together.
    private static func altitude(_ raw: RawSentence) throws(MalformedField) -> Double? {
        let value = try raw.decimal(1)
        switch try raw.character(2) {
        case UInt8(ascii: "f")?, UInt8(ascii: "F")?: return value.map { $0 * 0.3048 }
        case UInt8(ascii: "m")?, UInt8(ascii: "M")?, nil: return value
        default: throw MalformedField(fieldIndex: 2, error: FieldError(expected: "the unit f or M"))
        }
    }
}

extension PGRMZ: SentenceType {
    var sentenceTalker: Talker? { nil }
    var sentence: NMEASentence { .pgrmz(self) }

    /// Feet-resolution altitude: used only when the epoch has no GGA or GNS altitude.
    func apply(to epoch: inout EpochAccumulator) { epoch.garminAltitude = altitude ?? epoch.garminAltitude }
}
