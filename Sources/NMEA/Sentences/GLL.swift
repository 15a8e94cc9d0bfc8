/// GLL: geographic position with time. Every property is `nil` when its field is empty.
public struct GLL: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
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
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        latitude = try raw.latitude(1)
        longitude = try raw.longitude(3)
        time = try raw.time(5)
        isValid = try raw.validity(6)
        mode = try raw.positioningMode(7)
    }
}

extension GLL: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "L", "L") }
    static var timeField: Int? { 5 }
    var sentence: NMEASentence { .gll(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        let valid = isValid != false && mode?.isValid != false
        if valid { epoch.setPosition(latitude, longitude) }
        epoch.fix.positioningMode = mode ?? epoch.fix.positioningMode
        epoch.mode.validity(isValid.map { $0 && mode?.isValid != false }, hasAltitude: false)
    }
}
