/// DTM: the datum the positions are given in, and its offsets from the reference datum.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. An offset fails with its direction letter.
public struct DTM: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Local datum code: `W84` (WGS-84), `W72`, `S85`, `P90`, `999` (user defined); `nil` when empty.
    public var localDatum: String?
    /// Local datum subdivision code; `nil` when empty.
    public var subdivision: String?
    /// Latitude offset in degrees, north positive; `nil` when empty.
    @CompactDouble public var latitudeOffset: Double?
    /// Longitude offset in degrees, east positive; `nil` when empty.
    @CompactDouble public var longitudeOffset: Double?
    /// Altitude offset, metres; `nil` when empty.
    @CompactDouble public var altitudeOffset: Double?
    /// Reference datum code (usually `W84`); `nil` when empty.
    public var referenceDatum: String?

    /// Creates a DTM value.
    public init(talker: Talker, localDatum: String? = nil, subdivision: String? = nil, latitudeOffset: Double? = nil,
                longitudeOffset: Double? = nil, altitudeOffset: Double? = nil, referenceDatum: String? = nil) {
        self.talker = talker
        self.localDatum = localDatum
        self.subdivision = subdivision
        self.latitudeOffset = latitudeOffset
        self.longitudeOffset = longitudeOffset
        self.altitudeOffset = altitudeOffset
        self.referenceDatum = referenceDatum
    }

    /// Decodes `$--DTM,ccc,a,x.x,a,x.x,a,x.x,ccc` (offsets in minutes of arc).
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        localDatum = raw[1].isEmpty ? nil : raw[1].text
        subdivision = raw[2].isEmpty ? nil : raw[2].text
        latitudeOffset = Self.offset(raw, 3, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), &malformed)
        longitudeOffset = Self.offset(raw, 5, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), &malformed)
        altitudeOffset = malformed.reading(try raw.decimal(7))
        referenceDatum = raw[8].isEmpty ? nil : raw[8].text
    }

    /// An offset in minutes and its direction, which fail together, in degrees.
    private static func offset(_ raw: RawSentence, _ index: Int, positive: UInt8, negative: UInt8,
                               _ malformed: inout [MalformedField]) -> Double? {
        malformed.reading(try raw.decimal(index), qualifiedBy: try raw.letter(index + 1, positive, negative, expected: "a direction")) {
            minutes, direction throws(MalformedField) in
            guard let direction else { throw MalformedField(index + 1, expected: "a direction") }
            return (direction == negative ? -minutes : minutes) / 60
        }
    }
}

extension DTM: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("D", "T", "M") }
    var sentence: NMEASentence { .dtm(self) }

    /// Nothing in it bears on the fix (gpsd does not use it either).
    func apply(to epoch: inout EpochAccumulator) {}
    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {}
}
