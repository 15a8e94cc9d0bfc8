/// VTG: course and speed over ground. Every property is `nil` when its field is empty or
/// malformed.
///
/// Each field is decoded on its own, a value with its unit letter (they fail together); a
/// malformed one is reported and costs nothing else. The speed comes from the knots, or
/// from the kilometres per hour when the knots are empty or malformed.
public struct VTG: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Course over ground, degrees from true north.
    @CompactDouble public var courseTrue: Double?
    /// Course over ground, degrees from magnetic north.
    @CompactDouble public var courseMagnetic: Double?
    /// Speed over ground, metres per second (from the knots field, else the km/h field).
    @CompactDouble public var speed: Double?
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
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        let withUnits = raw.fieldCount >= 9 || raw[2].equals("T")
        if withUnits {
            courseTrue = raw.decimal(1, in: -360...360, unit: UInt8(ascii: "T"), &malformed)
            courseMagnetic = raw.decimal(3, in: -360...360, unit: UInt8(ascii: "M"), &malformed)
            let knots = raw.decimal(5, in: 0...1e6, unit: UInt8(ascii: "N"), &malformed)
            let kilometresPerHour = raw.decimal(7, in: 0...2e6, unit: UInt8(ascii: "K"), &malformed)
            speed = knots.map { $0 * metresPerSecondPerKnot } ?? kilometresPerHour.map { $0 / 3.6 }
            mode = malformed.reading(try raw.positioningMode(9))
        } else {
            courseTrue = malformed.reading(try raw.decimal(1, in: -360...360))
            courseMagnetic = malformed.reading(try raw.decimal(2, in: -360...360))
            let knots = malformed.reading(try raw.decimal(3, in: 0...1e6))
            let kilometresPerHour = malformed.reading(try raw.decimal(4, in: 0...2e6))
            speed = knots.map { $0 * metresPerSecondPerKnot } ?? kilometresPerHour.map { $0 / 3.6 }
        }
    }
}

extension VTG: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("V", "T", "G") }
    var sentence: NMEASentence { .vtg(self) }

    /// VTG has no time: a receiver may send it before the RMC of its own cycle, so that it
    /// arrives after the previous cycle's last sentence. An RMC's speed and course (timed, so
    /// of this epoch for certain) are therefore kept over VTG's; VTG's give the epoch's
    /// motion when no RMC did, and its magnetic course counts when its true course is the
    /// epoch's (the same solution's).
    func apply(to epoch: inout EpochAccumulator) {
        if mode?.isValid != false {
            if !epoch.hasTimedMotion {
                if let value = speed { epoch.fix.speed = value }
                if let value = courseTrue { epoch.fix.track = value }
            }
            if let courseMagnetic, !epoch.hasTimedMotion || courseTrue == nil || courseTrue == epoch.fix.track {
                epoch.fix.magneticTrack = courseMagnetic
            }
        }
        if let value = mode { epoch.fix.positioningMode = value }
    }
}
