/// Garmin's proprietary `$PGRME`: the receiver's estimated position errors, horizontal,
/// vertical and spherical, in metres.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. An estimate in a unit other than metres fails with its unit.
public struct PGRME: Sendable, Hashable {
    /// Estimated horizontal position error, metres; `nil` when empty or malformed.
    @CompactDouble public var horizontal: Double?
    /// Estimated vertical position error, metres; `nil` when empty or malformed.
    @CompactDouble public var vertical: Double?
    /// Estimated spherical (3D) position error, metres; `nil` when empty or malformed.
    @CompactDouble public var spherical: Double?

    /// Creates a PGRME value.
    public init(horizontal: Double? = nil, vertical: Double? = nil, spherical: Double? = nil) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.spherical = spherical
    }

    /// Decodes `$PGRME,x.x,M,x.x,M,x.x,M`.
    public init(_ raw: RawSentence, malformed: inout [MalformedField]) {
        horizontal = Self.metres(raw, 1, &malformed)
        vertical = Self.metres(raw, 3, &malformed)
        spherical = Self.metres(raw, 5, &malformed)
    }

    /// Field `index` in metres, its unit (`M`) in the field after it.
    private static func metres(_ raw: RawSentence, _ index: Int, _ malformed: inout [MalformedField]) -> Double? {
        malformed.reading(try raw.decimal(index, in: 0...1e6), qualifiedBy: try unit(raw, index + 1)) { value, _ in value }
    }

    private static func unit(_ raw: RawSentence, _ index: Int) throws(MalformedField) -> UInt8? {
        switch try raw.character(index) {
        case let unit? where unit == UInt8(ascii: "M"): unit
        case nil: nil
        default: throw MalformedField(index, expected: "the unit M")
        }
    }
}

extension PGRME: SentenceType {
    var sentenceTalker: Talker? { nil }
    var sentence: NMEASentence { .pgrme(self) }

    func apply(to epoch: inout EpochAccumulator) {
        guard horizontal != nil || vertical != nil || spherical != nil else { return }
        var errors = epoch.fix.errors ?? PositionErrors()
        errors.estimated = self
        epoch.fix.errors = errors
    }
}
