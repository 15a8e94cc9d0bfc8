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
    /// (as far as the receiver sends them).
    public var modes: PositioningModes
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
                modes: PositioningModes = PositioningModes(), satellitesUsed: Int? = nil, hdop: Double? = nil,
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
        var best: PositioningMode?
        for mode in modes where best.map({ Self.rank(mode) < Self.rank($0) }) ?? true { best = mode }
        return best
    }

    private static func rank(_ mode: PositioningMode) -> Int {
        switch mode {
        case .rtkFixed: 0
        case .rtkFloat: 1
        case .precise: 2
        case .differential: 3
        case .autonomous: 4
        case .estimated: 5
        case .manual: 6
        case .simulator: 7
        case .notValid: 8
        }
    }

    /// Decodes `$--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x,s`.
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        time = try raw.time(1)
        latitude = try raw.latitude(2)
        longitude = try raw.longitude(4)
        let modeField = raw[6]
        var modes = PositioningModes()
        for index in 0..<modeField.count {
            guard let mode = PositioningMode(rawValue: modeField[index]), modes.append(mode) else {
                throw MalformedSentence(fieldIndex: 6, error: FieldError(expected: "up to 8 mode indicators A, D, E, F, M, N, P, R or S"))
            }
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

/// Up to eight positioning modes, stored inline (no heap allocation).
public struct PositioningModes: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The most modes held.
    public static let capacity = 8
    private var packed: UInt64 = 0
    /// How many modes are held.
    public private(set) var count = 0

    /// An empty list.
    public init() {}

    /// A list of the given modes (the first eight).
    public init(arrayLiteral elements: PositioningMode...) {
        for mode in elements where !append(mode) { break }
    }

    /// Appends a mode; returns `false` when eight are held already.
    @discardableResult
    public mutating func append(_ mode: PositioningMode) -> Bool {
        guard count < Self.capacity else { return false }
        packed |= UInt64(mode.rawValue) << UInt64(8 * count)
        count += 1
        return true
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }
    /// The mode at `position`.
    public subscript(position: Int) -> PositioningMode {
        precondition(position >= 0 && position < count, "index out of range")
        return PositioningMode(rawValue: UInt8(truncatingIfNeeded: packed >> UInt64(8 * position)))!
    }
}

extension GNS: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "N", "S") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .gns(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        let mode = bestMode
        if mode?.isValid ?? true { epoch.setPosition(latitude, longitude) }
        epoch.fix.positioningMode = mode ?? epoch.fix.positioningMode
        epoch.mergeSolution(satellites: satellitesUsed, hdop: hdop, altitude: altitudeMSL, separation: geoidSeparation,
                            age: differentialAge, station: differentialStation)
        epoch.fix.navigationalStatus = navigationalStatus ?? epoch.fix.navigationalStatus
        epoch.mode.validity(mode.map(\.isValid), hasAltitude: altitudeMSL != nil)
    }
}
