/// GGA: time, position and fix data. Every property is `nil` when its field is empty.
public struct GGA: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
    /// Fix quality.
    public var quality: FixQuality?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Altitude above mean sea level (the geoid), metres.
    public var altitudeMSL: Double?
    /// Geoid separation: the geoid's height above the WGS-84 ellipsoid, metres.
    public var geoidSeparation: Double?
    /// Age of the differential corrections, seconds.
    public var differentialAge: Double?
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
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        time = try raw.time(1)
        latitude = try raw.latitude(2)
        longitude = try raw.longitude(4)
        if let value = try raw.integer(6) {
            guard let quality = FixQuality(rawValue: value) else {
                throw MalformedSentence(fieldIndex: 6, error: FieldError(expected: "a fix quality 0 to 8"))
            }
            self.quality = quality
        }
        satellitesUsed = try raw.integer(7)
        hdop = try raw.decimal(8, in: 0...9999)
        altitudeMSL = try raw.decimal(9)
        try raw.expectUnit(10, UInt8(ascii: "M"))
        geoidSeparation = try raw.decimal(11)
        try raw.expectUnit(12, UInt8(ascii: "M"))
        differentialAge = try raw.decimal(13)
        differentialStation = try raw.integer(14)
    }
}

extension GGA: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "G", "A") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .gga(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        if quality != .invalid { epoch.setPosition(latitude, longitude) }
        epoch.fix.quality = quality ?? epoch.fix.quality
        epoch.mergeSolution(satellites: satellitesUsed, hdop: hdop, altitude: altitudeMSL, separation: geoidSeparation,
                            age: differentialAge, station: differentialStation)
        epoch.mode.quality(satellitesUsed == 0 ? .invalid : quality, hasAltitude: altitudeMSL != nil)
    }
}
