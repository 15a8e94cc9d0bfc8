/// What every sentence type this module decodes declares, each in its own file: how it is
/// recognised and read, the time it carries, and how it applies itself to the epoch being
/// built. The decoder and the assembler take every type through one generic path; the one
/// list of the types is ``NMEASentence``'s (its cases, and its table of formatters).
protocol SentenceType: Sendable {
    /// The UTC time of day the sentence carries; `nil` for a type that carries none, or an
    /// empty time field.
    var time: TimeOfDay? { get }

    /// The index of the field that holds the fix's UTC time; `nil` for a type with none.
    static var timeField: Int? { get }

    /// Whether the type is a clock: a time and a date, and nothing about the fix (ZDA). A
    /// clock's time opens an epoch only when no position has given the epoch one.
    static var isClock: Bool { get }

    /// The talker; `nil` for a proprietary sentence.
    var sentenceTalker: Talker? { get }

    /// The value as the public sum type.
    var sentence: NMEASentence { get }

    /// Merges the sentence into the epoch being built. A type that tells nothing about the
    /// fix (GSV, whose satellites go to the sky assembler; DTM; TXT) merges nothing.
    func apply(to epoch: inout EpochAccumulator)

    /// Takes the sentence into `assembler`: by default through the cycle logic into the epoch,
    /// for the sentences that bear on the fix.
    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink)
}

extension SentenceType {
    @inline(__always)
    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.merge(self, into: &sink)
    }
}

/// A sentence type sent after a talker identifier (`GP`, `GN`…), recognised by its formatter.
protocol TalkerSentence: SentenceType {
    /// The three letters after the talker (`GGA`).
    static var formatter: SentenceFormatter { get }
    /// Who sent it.
    var talker: Talker { get }
    /// Decodes the sentence's fields, each on its own: a malformed one is `nil` and noted in
    /// `malformed`.
    init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField])
}

extension TalkerSentence {
    var sentenceTalker: Talker? { talker }
}

/// Types with no time field.
extension SentenceType {
    static var timeField: Int? { nil }
    var time: TimeOfDay? { nil }
}

/// Types that say something about the fix.
extension SentenceType {
    static var isClock: Bool { false }
}

/// Receives a decoded sentence as its own type.
protocol SentenceVisitor {
    mutating func visit<Sentence: SentenceType>(_ sentence: Sentence)
}

/// Receives a sentence as it is decoded: its value as its own type, and the problems of its
/// malformed fields.
protocol DecodedSentenceVisitor {
    mutating func visit<Sentence: SentenceType>(_ sentence: Sentence, malformed: [MalformedField])
}

/// Receives a sentence type (not a value), for what a type declares statically.
protocol SentenceTypeVisitor {
    mutating func visit<Sentence: TalkerSentence>(_ type: Sentence.Type)
}
