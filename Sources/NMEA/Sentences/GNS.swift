/// GNS: multi-constellation fix data, with one mode character per constellation.
/// Every property is `nil` when its field is empty.
public struct GNS: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
    /// One mode per constellation, in the order GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC
    /// (as far as the receiver sends them); `nil` for a character that is not a mode.
    public var modes: [PositioningMode?]
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Altitude above mean sea level, metres.
    public var altitudeMSL: Double?
    /// Geoid separation, metres.
    public var geoidSeparation: Double?
    /// Age of the differential corrections, seconds.
    public var differentialAge: Double?
    /// Differential reference station ID.
    public var differentialStation: Int?
    /// NMEA 4.10 navigational status.
    public var navigationalStatus: NavigationalStatus?

    /// Creates a GNS value.
    public init(talker: Talker, time: TimeOfDay? = nil, latitude: Double? = nil, longitude: Double? = nil,
                modes: [PositioningMode?] = [], satellitesUsed: Int? = nil, hdop: Double? = nil,
                altitudeMSL: Double? = nil, geoidSeparation: Double? = nil, differentialAge: Double? = nil,
                differentialStation: Int? = nil, navigationalStatus: NavigationalStatus? = nil) {
        self.talker = talker
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.modes = modes
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.altitudeMSL = altitudeMSL
        self.geoidSeparation = geoidSeparation
        self.differentialAge = differentialAge
        self.differentialStation = differentialStation
        self.navigationalStatus = navigationalStatus
    }

    /// The best mode among the constellations: a valid one if any is valid.
    public var bestMode: PositioningMode? {
        let valid = modes.compactMap { $0 }.filter(\.isValid)
        let order: [PositioningMode] = [.rtkFixed, .rtkFloat, .precise, .differential, .autonomous, .estimated, .manual, .simulator]
        return order.first(where: valid.contains) ?? modes.compactMap { $0 }.first
    }

    /// Decodes `$--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x,s`.
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        time = try raw.timeOfDay(1)
        latitude = try raw.latitude(2)
        longitude = try raw.longitude(4)
        let modeField = raw[6]
        var modes: [PositioningMode?] = []
        for index in 0..<modeField.count {
            guard let mode = PositioningMode(rawValue: modeField[index]) else {
                throw MalformedSentence(fieldIndex: 6, error: FieldError(expected: "mode indicators A, D, E, F, M, N, P, R or S"))
            }
            modes.append(mode)
        }
        self.modes = modes
        satellitesUsed = try raw.integer(7)
        hdop = try raw.decimal(8, in: 0...9999)
        altitudeMSL = try raw.decimal(9)
        geoidSeparation = try raw.decimal(10)
        differentialAge = try raw.decimal(11)
        differentialStation = try raw.integer(12)
        navigationalStatus = try raw.navigationalStatus(13)
    }
}
