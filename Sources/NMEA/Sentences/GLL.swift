/// GLL: geographic position with time. Every property is `nil` when its field is empty or
/// malformed.
///
/// Each field is decoded on its own; a malformed one is reported and costs nothing else. A
/// bad time makes the sentence belong to the epoch in progress; a bad status or mode
/// indicator leaves its position neither marked valid nor invalid (see ``EpochAssembler``);
/// a bad coordinate (with its hemisphere, which fails with it) leaves it without a position.
public struct GLL: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Latitude in degrees, north positive.
    @CompactDouble public var latitude: Double?
    /// Longitude in degrees, east positive.
    @CompactDouble public var longitude: Double?
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// `true` for `A` (valid), `false` for `V`.
    public var isValid: Bool?
    /// NMEA 2.3 mode indicator.
    public var mode: PositioningMode?

    /// Creates a GLL value.
    public init(talker: Talker, latitude: Double? = nil, longitude: Double? = nil, time: TimeOfDay? = nil,
                isValid: Bool? = nil, mode: PositioningMode? = nil) {
        self.talker = talker
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.isValid = isValid
        self.mode = mode
    }

    /// Decodes `$--GLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,m`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        latitude = raw.latitude(1, &malformed)
        longitude = raw.longitude(3, &malformed)
        time = malformed.reading(try raw.time(5))
        isValid = malformed.reading(try raw.validity(6))
        mode = malformed.reading(try raw.positioningMode(7))
    }
}

extension GLL: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "L", "L") }
    static var timeField: Int? { 5 }
    var sentence: NMEASentence { .gll(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        let verdict = ModeEvidence.Verdict(status: isValid, mode: mode)
        if verdict != .invalid { epoch.setPosition(latitude, longitude) }
        if let value = mode { epoch.fix.positioningMode = value }
        epoch.mode.position(verdict, hasPosition: latitude != nil && longitude != nil)
    }
}
