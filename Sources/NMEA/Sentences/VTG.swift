/// VTG: course and speed over ground. Every property is `nil` when its field is empty.
public struct VTG: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Course over ground, degrees from true north.
    public var courseTrue: Double?
    /// Course over ground, degrees from magnetic north.
    public var courseMagnetic: Double?
    /// Speed over ground, metres per second (from the knots field, else the km/h field).
    public var speed: Double?
    /// NMEA 2.3 mode indicator.
    public var mode: PositioningMode?

    /// Creates a VTG value.
    public init(talker: Talker, courseTrue: Double? = nil, courseMagnetic: Double? = nil, speed: Double? = nil,
                mode: PositioningMode? = nil) {
        self.talker = talker
        self.courseTrue = courseTrue
        self.courseMagnetic = courseMagnetic
        self.speed = speed
        self.mode = mode
    }

    /// Decodes `$--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m`, and the pre-2.0 form without unit letters,
    /// `$--VTG,x.x,x.x,x.x,x.x`.
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        let withUnits = raw.fieldCount >= 9 || raw[2].equals("T")
        if withUnits {
            courseTrue = try raw.decimal(1, in: -360...360)
            try raw.expectUnit(2, UInt8(ascii: "T"))
            courseMagnetic = try raw.decimal(3, in: -360...360)
            try raw.expectUnit(4, UInt8(ascii: "M"))
            let knots = try raw.decimal(5, in: 0...1e6)
            try raw.expectUnit(6, UInt8(ascii: "N"))
            let kilometresPerHour = try raw.decimal(7, in: 0...2e6)
            try raw.expectUnit(8, UInt8(ascii: "K"))
            speed = knots.map { $0 * metresPerSecondPerKnot } ?? kilometresPerHour.map { $0 / 3.6 }
            mode = try raw.positioningMode(9)
        } else {
            courseTrue = try raw.decimal(1, in: -360...360)
            courseMagnetic = try raw.decimal(2, in: -360...360)
            let knots = try raw.decimal(3, in: 0...1e6)
            let kilometresPerHour = try raw.decimal(4, in: 0...2e6)
            speed = knots.map { $0 * metresPerSecondPerKnot } ?? kilometresPerHour.map { $0 / 3.6 }
        }
    }
}

extension VTG: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("V", "T", "G") }
    var sentence: NMEASentence { .vtg(self) }

    func apply(to epoch: inout EpochAccumulator) {
        if mode?.isValid != false {
            epoch.fix.speed = speed ?? epoch.fix.speed
            epoch.fix.track = courseTrue ?? epoch.fix.track
        }
        epoch.fix.positioningMode = mode ?? epoch.fix.positioningMode
    }
}
