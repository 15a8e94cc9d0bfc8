/// HDT: true heading (the direction the vessel points, not its course).
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. The heading fails with its unit letter.
public struct HDT: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// Heading, degrees from true north; `nil` when empty.
    @CompactDouble public var heading: Double?

    /// Creates an HDT value.
    public init(talker: Talker, heading: Double? = nil) {
        self.talker = talker
        self.heading = heading
    }

    /// Decodes `$--HDT,x.x,T`.
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        heading = raw.decimal(1, in: -360...360, unit: UInt8(ascii: "T"), &malformed)
    }
}

extension HDT: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("H", "D", "T") }
    var sentence: NMEASentence { .hdt(self) }

    func apply(to epoch: inout EpochAccumulator) { if let heading { epoch.fix.heading = heading } }
}
