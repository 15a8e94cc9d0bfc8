/// GGA: time, position and fix data. Every property is `nil` when its field is empty or
/// malformed.
///
/// Each field is decoded on its own; a malformed one is reported and costs nothing else. The
/// fields that matter most, and what a bad one does:
/// - the time: without it the sentence belongs to the epoch in progress;
/// - latitude and longitude, each with its hemisphere (a pair fails together): without them
///   the sentence gives no position, and cannot by itself make the epoch a fix;
/// - the quality: without it the sentence neither marks its position valid nor invalid (see
///   ``EpochAssembler`` for the precedence of fix indicators);
/// - the altitude with its unit: without it a fix from this sentence is 2D.
public struct GGA: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// Latitude in degrees, north positive.
    @CompactDouble public var latitude: Double?
    /// Longitude in degrees, east positive.
    @CompactDouble public var longitude: Double?
    /// Fix quality.
    public var quality: FixQuality?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    @CompactDouble public var hdop: Double?
    /// Altitude above mean sea level (the geoid), metres.
    @CompactDouble public var altitudeMSL: Double?
    /// Geoid separation: the geoid's height above the WGS-84 ellipsoid, metres.
    @CompactDouble public var geoidSeparation: Double?
    /// Age of the differential corrections, seconds.
    @CompactDouble public var differentialAge: Double?
    /// Differential reference station ID.
    public var differentialStation: Int?

    /// Creates a GGA value.
    public init(talker: Talker, time: TimeOfDay? = nil, latitude: Double? = nil, longitude: Double? = nil,
                quality: FixQuality? = nil, satellitesUsed: Int? = nil, hdop: Double? = nil,
                altitudeMSL: Double? = nil, geoidSeparation: Double? = nil,
                differentialAge: Double? = nil, differentialStation: Int? = nil) {
        self.talker = talker
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitudeMSL = altitudeMSL
        self.geoidSeparation = geoidSeparation
        self.differentialAge = differentialAge
        self.differentialStation = differentialStation
    }

    /// Decodes `$--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,x.x,x.x,M,x.x,M,x.x,xxxx`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        time = malformed.reading(try raw.time(1))
        latitude = raw.latitude(2, &malformed)
        longitude = raw.longitude(4, &malformed)
        quality = malformed.reading(try raw.fixQuality(6))
        satellitesUsed = malformed.reading(try raw.integer(7))
        hdop = malformed.reading(try raw.decimal(8, in: 0...9999))
        altitudeMSL = raw.decimal(9, unit: UInt8(ascii: "M"), &malformed)
        geoidSeparation = raw.decimal(11, unit: UInt8(ascii: "M"), &malformed)
        differentialAge = malformed.reading(try raw.decimal(13))
        differentialStation = malformed.reading(try raw.integer(14))
    }
}

extension GGA: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "G", "A") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .gga(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        let verdict: ModeEvidence.Verdict = quality.map { $0 == .invalid ? .invalid : .valid } ?? .silent
        let counts = verdict != .invalid
        if counts { epoch.setPosition(latitude, longitude) }
        if let value = quality { epoch.fix.quality = value }
        epoch.mergeSolution(satellites: satellitesUsed, hdop: hdop, altitude: counts ? altitudeMSL : nil,
                            separation: counts ? geoidSeparation : nil, age: differentialAge, station: differentialStation)
        epoch.mode.position(verdict, hasPosition: latitude != nil && longitude != nil, altitude: altitudeMSL != nil)
    }
}
