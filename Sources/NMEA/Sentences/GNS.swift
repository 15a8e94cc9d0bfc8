/// GNS: multi-constellation fix data, with one mode character per constellation.
/// Every property is `nil` when its field is empty or malformed.
///
/// Each field is decoded on its own; a malformed one is reported and costs nothing else. The
/// fields that matter most are those of GGA (time, coordinates with their hemispheres,
/// altitude) and the mode indicators, which stand for GGA's quality: a malformed mode field
/// leaves the sentence's position neither marked valid nor invalid (see ``EpochAssembler``).
public struct GNS: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// Latitude in degrees, north positive.
    @CompactDouble public var latitude: Double?
    /// Longitude in degrees, east positive.
    @CompactDouble public var longitude: Double?
    /// One mode per constellation, in the order GPS, GLONASS, Galileo, BeiDou, QZSS, NavIC
    /// (as far as the receiver sends them).
    public var modes: PositioningModes
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision.
    @CompactDouble public var hdop: Double?
    /// Altitude above mean sea level, metres.
    @CompactDouble public var altitudeMSL: Double?
    /// Geoid separation, metres.
    @CompactDouble public var geoidSeparation: Double?
    /// Age of the differential corrections, seconds.
    @CompactDouble public var differentialAge: Double?
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
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        time = malformed.reading(try raw.time(1))
        latitude = raw.latitude(2, &malformed)
        longitude = raw.longitude(4, &malformed)
        modes = malformed.reading(try Self.modes(raw, 6)) ?? PositioningModes()
        satellitesUsed = malformed.reading(try raw.integer(7))
        hdop = malformed.reading(try raw.decimal(8, in: 0...9999))
        altitudeMSL = malformed.reading(try raw.decimal(9))
        geoidSeparation = malformed.reading(try raw.decimal(10))
        differentialAge = malformed.reading(try raw.decimal(11))
        differentialStation = malformed.reading(try raw.integer(12))
        navigationalStatus = malformed.reading(try raw.navigationalStatus(13))
    }

    /// The mode field: one indicator per constellation.
    private static func modes(_ raw: RawSentence, _ index: Int) throws(MalformedField) -> PositioningModes {
        let field = raw[index]
        var modes = PositioningModes()
        for offset in 0..<field.count {
            guard let mode = PositioningMode(rawValue: field[offset]), modes.append(mode) else {
                throw MalformedField(fieldIndex: index, error: FieldError(expected: "up to 8 mode indicators A, D, E, F, M, N, P, R or S"))
            }
        }
        return modes
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
        let verdict: ModeEvidence.Verdict = mode.map { $0.isValid ? .valid : .invalid } ?? .silent
        let counts = verdict != .invalid
        if counts { epoch.setPosition(latitude, longitude) }
        if let value = mode { epoch.fix.positioningMode = value }
        epoch.mergeSolution(satellites: satellitesUsed, hdop: hdop, altitude: counts ? altitudeMSL : nil,
                            separation: counts ? geoidSeparation : nil, age: differentialAge, station: differentialStation)
        if let value = navigationalStatus { epoch.fix.navigationalStatus = value }
        epoch.mode.position(verdict, hasPosition: latitude != nil && longitude != nil, altitude: altitudeMSL != nil)
    }
}
