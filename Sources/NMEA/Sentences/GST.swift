/// GST: pseudorange error statistics, the receiver's own estimate of its position error.
/// Every property is `nil` when its field is empty or malformed.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. A bad time makes the sentence belong to the epoch in progress.
public struct GST: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the associated position.
    public var time: TimeOfDay?
    /// RMS of the pseudorange residuals, metres.
    @CompactDouble public var rangeRMS: Double?
    /// Standard deviation of the error ellipse's semi-major axis, metres.
    @CompactDouble public var semiMajorDeviation: Double?
    /// Standard deviation of the error ellipse's semi-minor axis, metres.
    @CompactDouble public var semiMinorDeviation: Double?
    /// Orientation of the semi-major axis, degrees from true north.
    @CompactDouble public var orientation: Double?
    /// Standard deviation of the latitude error, metres.
    @CompactDouble public var latitudeDeviation: Double?
    /// Standard deviation of the longitude error, metres.
    @CompactDouble public var longitudeDeviation: Double?
    /// Standard deviation of the altitude error, metres.
    @CompactDouble public var altitudeDeviation: Double?

    /// Creates a GST value.
    public init(talker: Talker, time: TimeOfDay? = nil, rangeRMS: Double? = nil, semiMajorDeviation: Double? = nil,
                semiMinorDeviation: Double? = nil, orientation: Double? = nil, latitudeDeviation: Double? = nil,
                longitudeDeviation: Double? = nil, altitudeDeviation: Double? = nil) {
        self.talker = talker
        self.time = time
        self.rangeRMS = rangeRMS
        self.semiMajorDeviation = semiMajorDeviation
        self.semiMinorDeviation = semiMinorDeviation
        self.orientation = orientation
        self.latitudeDeviation = latitudeDeviation
        self.longitudeDeviation = longitudeDeviation
        self.altitudeDeviation = altitudeDeviation
    }

    /// Decodes `$--GST,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        time = malformed.reading(try raw.time(1))
        rangeRMS = malformed.reading(try raw.decimal(2, in: 0...1e9))
        semiMajorDeviation = malformed.reading(try raw.decimal(3, in: 0...1e9))
        semiMinorDeviation = malformed.reading(try raw.decimal(4, in: 0...1e9))
        orientation = malformed.reading(try raw.decimal(5, in: -360...360))
        latitudeDeviation = malformed.reading(try raw.decimal(6, in: 0...1e9))
        longitudeDeviation = malformed.reading(try raw.decimal(7, in: 0...1e9))
        altitudeDeviation = malformed.reading(try raw.decimal(8, in: 0...1e9))
    }
}

extension GST: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "S", "T") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .gst(self) }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        // Over a GBS of the epoch, field by field.
        var errors = epoch.fix.errors ?? PositionErrors()
        if let value = latitudeDeviation { errors.latitude = value }
        if let value = longitudeDeviation { errors.longitude = value }
        if let value = altitudeDeviation { errors.altitude = value }
        errors.rangeRMS = rangeRMS
        errors.semiMajor = semiMajorDeviation
        errors.semiMinor = semiMinorDeviation
        errors.orientation = orientation
        epoch.fix.errors = errors
    }
}
