/// HDT: true heading (the direction the vessel points, not its course).
public struct HDT: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Heading, degrees from true north; `nil` when empty.
    public var heading: Double?

    /// Creates an HDT value.
    public init(talker: Talker, heading: Double? = nil) {
        self.talker = talker
        self.heading = heading
    }

    /// Decodes `$--HDT,x.x,T`.
    public init(_ raw: RawSentence, talker: Talker) throws(MalformedSentence) {
        self.talker = talker
        heading = try raw.decimal(1, in: -360...360)
        try raw.expectUnit(2, UInt8(ascii: "T"))
    }
}

extension HDT: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("H", "D", "T") }
    var sentence: NMEASentence { .hdt(self) }

    func apply(to epoch: inout EpochAccumulator) { epoch.fix.heading = heading ?? epoch.fix.heading }
}
