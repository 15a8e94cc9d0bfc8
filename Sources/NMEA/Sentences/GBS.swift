/// GBS: satellite fault detection (RAIM): expected errors and the most likely failed satellite.
/// Every property is `nil` when its field is empty or malformed.
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. A bad time makes the sentence belong to the epoch in progress.
public struct GBS: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// UTC time of the associated position.
    public var time: TimeOfDay?
    /// Expected latitude error, metres.
    @CompactDouble public var latitudeError: Double?
    /// Expected longitude error, metres.
    @CompactDouble public var longitudeError: Double?
    /// Expected altitude error, metres.
    @CompactDouble public var altitudeError: Double?
    /// NMEA ID of the most likely failed satellite.
    public var failedSatellite: Int?
    /// Probability of missed detection of the failed satellite.
    @CompactDouble public var missedDetectionProbability: Double?
    /// Estimated bias of the failed satellite, metres.
    @CompactDouble public var bias: Double?
    /// Standard deviation of the bias, metres.
    @CompactDouble public var biasDeviation: Double?
    /// NMEA 4.10 system ID.
    public var systemID: Int?
    /// NMEA 4.10 signal ID.
    public var signalID: Int?

    /// Creates a GBS value.
    public init(talker: Talker, time: TimeOfDay? = nil, latitudeError: Double? = nil, longitudeError: Double? = nil,
                altitudeError: Double? = nil, failedSatellite: Int? = nil, missedDetectionProbability: Double? = nil,
                bias: Double? = nil, biasDeviation: Double? = nil, systemID: Int? = nil, signalID: Int? = nil) {
        self.talker = talker
        self.time = time
        self.latitudeError = latitudeError
        self.longitudeError = longitudeError
        self.altitudeError = altitudeError
        self.failedSatellite = failedSatellite
        self.missedDetectionProbability = missedDetectionProbability
        self.bias = bias
        self.biasDeviation = biasDeviation
        self.systemID = systemID
        self.signalID = signalID
    }

    /// Decodes `$--GBS,hhmmss.ss,x.x,x.x,x.x,xx,x.x,x.x,x.x[,h,h]`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        time = malformed.reading(try raw.time(1))
        latitudeError = malformed.reading(try raw.decimal(2))
        longitudeError = malformed.reading(try raw.decimal(3))
        altitudeError = malformed.reading(try raw.decimal(4))
        failedSatellite = malformed.reading(try raw.integer(5))
        missedDetectionProbability = malformed.reading(try raw.decimal(6))
        bias = malformed.reading(try raw.decimal(7))
        biasDeviation = malformed.reading(try raw.decimal(8))
        systemID = malformed.reading(try raw.read(9) { field throws(FieldError) in try field.hexInteger() })
        signalID = malformed.reading(try raw.read(10) { field throws(FieldError) in try field.hexInteger() })
    }
}

extension GBS: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("G", "B", "S") }
    static var timeField: Int? { 1 }
    var sentence: NMEASentence { .gbs(self) }

    /// Its expected errors fill those a GST of the epoch did not give (both are one standard
    /// deviation).
    func apply(to epoch: inout EpochAccumulator) {
        epoch.noteTime(time)
        guard latitudeError != nil || longitudeError != nil || altitudeError != nil else { return }
        var errors = epoch.fix.errors ?? PositionErrors()
        errors.latitude = errors.latitude ?? latitudeError
        errors.longitude = errors.longitude ?? longitudeError
        errors.altitude = errors.altitude ?? altitudeError
        epoch.fix.errors = errors
    }
}
