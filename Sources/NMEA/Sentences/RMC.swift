/// RMC: the recommended minimum: time, date, position, speed and course.
/// Every property is `nil` when its field is empty or malformed.
///
/// Each field is decoded on its own; a malformed one is reported and costs nothing else (a
/// magnetic variation of `999.9`, which receivers without a model send, loses only the
/// variation). The fields that matter most, and what a bad one does:
/// - the time and the date: without them the epoch's time comes from its other sentences;
/// - the status and the mode indicator: without them the sentence neither marks its position
///   valid nor invalid (see ``EpochAssembler``);
/// - latitude and longitude, each with its hemisphere (a pair fails together): without them
///   the sentence gives no position, and cannot by itself make the epoch a fix.
public struct RMC: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the position.
    public var time: TimeOfDay?
    /// `true` for `A` (data valid), `false` for `V` (warning: no fix).
    public var isValid: Bool?
    /// Latitude in degrees, north positive.
    @CompactDouble public var latitude: Double?
    /// Longitude in degrees, east positive.
    @CompactDouble public var longitude: Double?
    /// Speed over ground, metres per second (converted from knots).
    @CompactDouble public var speed: Double?
    /// Course over ground, degrees from true north.
    @CompactDouble public var course: Double?
    /// The UTC date, with the two-digit year as sent; see ``TwoDigitDate``.
    public var date: TwoDigitDate?
    /// Magnetic variation in degrees, east positive.
    @CompactDouble public var magneticVariation: Double?
    /// NMEA 2.3 mode indicator.
    public var mode: PositioningMode?
    /// NMEA 4.10 navigational status.
    public var navigationalStatus: NavigationalStatus?

    /// Creates an RMC value.
    public init(talker: Talker, time: TimeOfDay? = nil, isValid: Bool? = nil, latitude: Double? = nil,
                longitude: Double? = nil, speed: Double? = nil, course: Double? = nil, date: TwoDigitDate? = nil,
                magneticVariation: Double? = nil, mode: PositioningMode? = nil,
                navigationalStatus: NavigationalStatus? = nil) {
        self.talker = talker
        self.time = time
        self.isValid = isValid
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.course = course
        self.date = date
        self.magneticVariation = magneticVariation
        self.mode = mode
        self.navigationalStatus = navigationalStatus
    }

    /// Decodes `$--RMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a,m,s`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        time = malformed.reading(try raw.time(1))
        isValid = malformed.reading(try raw.validity(2))
        latitude = raw.latitude(3, &malformed)
        longitude = raw.longitude(5, &malformed)
        speed = malformed.reading(try raw.decimal(7, in: 0...1e6)).map { $0 * metresPerSecondPerKnot }
        course = malformed.reading(try raw.decimal(8, in: -360...360))
        date = malformed.reading(try raw.read(9) { field throws(FieldError) in try field.twoDigitDate() })
        magneticVariation = raw.eastWest(10, &malformed)
        mode = malformed.reading(try raw.positioningMode(12))
        navigationalStatus = malformed.reading(try raw.navigationalStatus(13))
    }
}

/// A `ddmmyy` date with its year still in two digits, as RMC sends it.
public struct TwoDigitDate: Sendable, Hashable {
    /// Day of the month, 1 to 31.
    public var day: Int
    /// Month, 1 to 12.
    public var month: Int
    /// Year within the century, 0 to 99.
    public var yearInCentury: Int

    /// Creates a two-digit date.
    public init(day: Int, month: Int, yearInCentury: Int) {
        self.day = day
        self.month = month
        self.yearInCentury = yearInCentury
    }
}

extension NMEAField {
    /// A date `ddmmyy`; `nil` when empty.
    public func twoDigitDate() throws(FieldError) -> TwoDigitDate? {
        guard count > 0 else { return nil }
        guard count == 6, let value = try? integer() else { throw FieldError(expected: "a date ddmmyy") }
        let date = TwoDigitDate(day: value / 10000, month: value / 100 % 100, yearInCentury: value % 100)
        guard (1...12).contains(date.month), (1...31).contains(date.day) else { throw FieldError(expected: "a date ddmmyy") }
        return date
    }
}

extension RMC: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("R", "M", "C") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .rmc(self) }

    func apply(to epoch: inout EpochAccumulator) {
        if let date { epoch.dates.noteTwoDigitDate(date, at: time) }
        epoch.noteTime(time)
        let verdict = ModeEvidence.Verdict(status: isValid, mode: mode)
        if verdict != .invalid {
            epoch.setPosition(latitude, longitude)
            if let value = speed { epoch.fix.speed = value }
            if let value = course { epoch.fix.track = value }
            if speed != nil || course != nil { epoch.hasTimedMotion = true }
        }
        if let value = magneticVariation { epoch.fix.magneticVariation = value }
        if let value = mode { epoch.fix.positioningMode = value }
        if let value = navigationalStatus { epoch.fix.navigationalStatus = value }
        epoch.mode.position(verdict, hasPosition: latitude != nil && longitude != nil)
    }
}
