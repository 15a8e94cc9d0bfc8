/// Garmin's proprietary `$PGRMF`, "position fix": GPS week and time of week, UTC date and
/// time, the GPS leap seconds, position, fix type, speed, course and two dilutions.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. What it adds to an epoch is its time and the leap seconds: its receivers send it
/// beside RMC and GGA, which give the fix.
public struct PGRMF: Sendable, Hashable {
    /// GPS week number (as the receiver counts it, possibly rolled over); `nil` when empty.
    public var gpsWeek: Int?
    /// Seconds into the GPS week; `nil` when empty.
    public var gpsSecondsOfWeek: Int?
    /// UTC date; `nil` when empty or malformed.
    public var date: TwoDigitDate?
    /// UTC time of day; `nil` when empty or malformed.
    public var time: TimeOfDay?
    /// GPS time minus UTC, seconds (the leap seconds since 1980); `nil` when empty.
    public var leapSeconds: Int?
    /// Latitude, degrees north positive; `nil` when empty or malformed.
    @CompactDouble public var latitude: Double?
    /// Longitude, degrees east positive; `nil` when empty or malformed.
    @CompactDouble public var longitude: Double?
    /// Fix type: 0 none, 1 2D, 2 3D; `nil` when empty.
    public var fixType: Int?
    /// Speed over ground, metres per second (sent in km/h); `nil` when empty.
    @CompactDouble public var speed: Double?
    /// Course over ground, degrees from true north; `nil` when empty.
    @CompactDouble public var course: Double?
    /// Position dilution of precision (whole numbers, 0 to 9); `nil` when empty.
    @CompactDouble public var pdop: Double?
    /// Time dilution of precision (whole numbers, 0 to 9); `nil` when empty.
    @CompactDouble public var tdop: Double?

    /// Creates a PGRMF value.
    public init(gpsWeek: Int? = nil, gpsSecondsOfWeek: Int? = nil, date: TwoDigitDate? = nil, time: TimeOfDay? = nil,
                leapSeconds: Int? = nil, latitude: Double? = nil, longitude: Double? = nil, fixType: Int? = nil,
                speed: Double? = nil, course: Double? = nil, pdop: Double? = nil, tdop: Double? = nil) {
        self.gpsWeek = gpsWeek
        self.gpsSecondsOfWeek = gpsSecondsOfWeek
        self.date = date
        self.time = time
        self.leapSeconds = leapSeconds
        self.latitude = latitude
        self.longitude = longitude
        self.fixType = fixType
        self.speed = speed
        self.course = course
        self.pdop = pdop
        self.tdop = tdop
    }

    /// Decodes `$PGRMF,week,seconds,ddmmyy,hhmmss,leap,lat,N,lon,E,mode,fix,speed,course,pdop,tdop`.
    public init(_ raw: RawSentence, malformed: inout [MalformedField]) {
        gpsWeek = malformed.reading(try raw.integer(1))
        gpsSecondsOfWeek = malformed.reading(try raw.integer(2))
        date = malformed.reading(try raw.read(3) { field throws(FieldError) in try field.twoDigitDate() })
        time = malformed.reading(try raw.time(4))
        leapSeconds = malformed.reading(try raw.integer(5))
        latitude = raw.latitude(6, &malformed)
        longitude = raw.longitude(8, &malformed)
        fixType = malformed.reading(try raw.integer(11))
        speed = malformed.reading(try raw.decimal(12, in: 0...2000)).map { $0 / 3.6 }
        course = malformed.reading(try raw.decimal(13, in: 0...360))
        pdop = malformed.reading(try raw.decimal(14))
        tdop = malformed.reading(try raw.decimal(15))
    }
}

extension PGRMF: SentenceType {
    static var timeField: Int? { 4 }
    var sentenceTalker: Talker? { nil }
    var sentence: NMEASentence { .pgrmf(self) }

    /// Its time and date, and the leap seconds, which hold from here until a receiver says
    /// otherwise (as gpsd keeps them).
    func apply(to epoch: inout EpochAccumulator) {
        if let date { epoch.dates.noteTwoDigitDate(date, at: time) }
        epoch.noteTime(time)
        if let leapSeconds { epoch.noteLeapSeconds(leapSeconds) }
    }
}
