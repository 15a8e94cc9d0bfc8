/// A decoded NMEA 0183 sentence of one of the types this module understands.
///
/// Each type lives in a file of its own, where it declares its formatter, its time and how it
/// applies itself to an epoch; this file is the one list of them: a case here, and a line in
/// `withType(of:_:)` (proprietary types in `decode(_:into:)`).
public enum NMEASentence: Sendable, Hashable {
    /// Fix data.
    case gga(GGA)
    /// Recommended minimum.
    case rmc(RMC)
    /// DOP and satellites used.
    case gsa(GSA)
    /// Satellites in view (one part of a group).
    case gsv(GSV)
    /// Course and speed.
    case vtg(VTG)
    /// Geographic position.
    case gll(GLL)
    /// Time and date.
    case zda(ZDA)
    /// Error statistics.
    case gst(GST)
    /// Multi-constellation fix data.
    case gns(GNS)
    /// Fault detection.
    case gbs(GBS)
    /// Datum.
    case dtm(DTM)
    /// Text.
    case txt(TXT)
    /// True heading.
    case hdt(HDT)
    /// Garmin altitude (proprietary `$PGRMZ`).
    case pgrmz(PGRMZ)
    /// Garmin position fix, with the leap seconds (proprietary `$PGRMF`).
    case pgrmf(PGRMF)
    /// Garmin estimated position errors (proprietary `$PGRME`).
    case pgrme(PGRME)

    /// Hands the typed value to `visitor`.
    func accept<Visitor: SentenceVisitor>(_ visitor: inout Visitor) {
        switch self {
        case .gga(let s): visitor.visit(s)
        case .rmc(let s): visitor.visit(s)
        case .gsa(let s): visitor.visit(s)
        case .gsv(let s): visitor.visit(s)
        case .vtg(let s): visitor.visit(s)
        case .gll(let s): visitor.visit(s)
        case .zda(let s): visitor.visit(s)
        case .gst(let s): visitor.visit(s)
        case .gns(let s): visitor.visit(s)
        case .gbs(let s): visitor.visit(s)
        case .dtm(let s): visitor.visit(s)
        case .txt(let s): visitor.visit(s)
        case .hdt(let s): visitor.visit(s)
        case .pgrmz(let s): visitor.visit(s)
        case .pgrmf(let s): visitor.visit(s)
        case .pgrme(let s): visitor.visit(s)
        }
    }

    /// Calls `visitor` with the talker sentence type whose formatter is `formatter`; returns
    /// `false` for a formatter this module does not decode.
    @inline(__always)
    static func withType<Visitor: SentenceTypeVisitor>(of formatter: SentenceFormatter, _ visitor: inout Visitor) -> Bool {
        switch formatter {
        case GGA.formatter: visitor.visit(GGA.self)
        case RMC.formatter: visitor.visit(RMC.self)
        case GSA.formatter: visitor.visit(GSA.self)
        case GSV.formatter: visitor.visit(GSV.self)
        case VTG.formatter: visitor.visit(VTG.self)
        case GLL.formatter: visitor.visit(GLL.self)
        case ZDA.formatter: visitor.visit(ZDA.self)
        case GST.formatter: visitor.visit(GST.self)
        case GNS.formatter: visitor.visit(GNS.self)
        case GBS.formatter: visitor.visit(GBS.self)
        case DTM.formatter: visitor.visit(DTM.self)
        case TXT.formatter: visitor.visit(TXT.self)
        case HDT.formatter: visitor.visit(HDT.self)
        default: return false
        }
        return true
    }

    /// The sentence's talker; `nil` for proprietary sentences.
    public var talker: Talker? {
        var reader = TalkerReader()
        accept(&reader)
        return reader.talker
    }

    /// The time of day the sentence carries, for the types that carry one.
    public var time: TimeOfDay? {
        var reader = TimeReader()
        accept(&reader)
        return reader.time
    }

    /// Decodes `raw` when its type is one this module knows. A malformed field decodes as
    /// `nil` (each type says what that costs); ``decode(_:malformed:)`` also says which.
    ///
    /// - Returns: the decoded sentence, or `nil` for a sentence type this module does not decode
    ///   (most proprietary sentences, AIS, and the many others: they remain available raw).
    public static func decode(_ raw: RawSentence) -> NMEASentence? {
        var malformed: [MalformedField] = []
        return decode(raw, malformed: &malformed)
    }

    /// Decodes `raw` when its type is one this module knows, and appends the problem of each
    /// malformed field to `malformed`: a bad field costs that field (and the one it only means
    /// something with), never the sentence.
    ///
    /// - Returns: the decoded sentence, or `nil` for a sentence type this module does not decode.
    public static func decode(_ raw: RawSentence, malformed: inout [MalformedField]) -> NMEASentence? {
        var builder = Builder()
        guard decode(raw, into: &builder) else { return nil }
        malformed.append(contentsOf: builder.malformed)
        return builder.sentence
    }

    /// Decodes `raw` and hands the typed value to `visitor`, with no enum in between.
    /// Returns `false` for a type this module does not decode.
    @inline(__always)
    static func decode<Visitor: DecodedSentenceVisitor>(_ raw: RawSentence, into visitor: inout Visitor) -> Bool {
        let address = raw.address
        guard address.count == 5, !raw.isProprietary else {
            // Proprietary sentences, by their whole address.
            guard raw.isProprietary else { return false }
            var malformed: [MalformedField] = []
            if address.equals("PGRMZ") {
                visitor.visit(PGRMZ(raw, malformed: &malformed), malformed: malformed)
            } else if address.equals("PGRMF") {
                visitor.visit(PGRMF(raw, malformed: &malformed), malformed: malformed)
            } else if address.equals("PGRME") {
                visitor.visit(PGRME(raw, malformed: &malformed), malformed: malformed)
            } else {
                return false
            }
            return true
        }
        // A standard address is five bytes, the talker then the formatter: read here as bytes,
        // without the optionals of ``RawSentence/talker`` and ``RawSentence/formatter``.
        var reader = Reader(raw: raw, talker: Talker(address[0], address[1]), visitor: visitor)
        defer { visitor = reader.visitor }
        return withType(of: SentenceFormatter(address[2], address[3], address[4]), &reader)
    }

    /// Decodes the fields of the type it is given and passes the value on.
    private struct Reader<Visitor: DecodedSentenceVisitor>: SentenceTypeVisitor {
        let raw: RawSentence
        let talker: Talker
        var visitor: Visitor

        @inline(__always)
        mutating func visit<Sentence: TalkerSentence>(_ type: Sentence.Type) {
            var malformed: [MalformedField] = []
            let sentence = Sentence(raw, talker: talker, malformed: &malformed)
            visitor.visit(sentence, malformed: malformed)
        }
    }

    private struct Builder: DecodedSentenceVisitor {
        var sentence: NMEASentence?
        var malformed: [MalformedField] = []
        mutating func visit<Sentence: SentenceType>(_ s: Sentence, malformed: [MalformedField]) {
            sentence = s.sentence
            self.malformed = malformed
        }
    }

    private struct TalkerReader: SentenceVisitor {
        var talker: Talker?
        mutating func visit<Sentence: SentenceType>(_ s: Sentence) { talker = s.sentenceTalker }
    }

    private struct TimeReader: SentenceVisitor {
        var time: TimeOfDay?
        mutating func visit<Sentence: SentenceType>(_ s: Sentence) { time = s.time }
    }
}

extension NMEASentence {
    /// The UTC time of day in one line of a log (`$` through the checksum; the checksum is not
    /// checked), for the sentence types that carry the time of a fix. `nil` for any other line,
    /// and when the time field is empty or not a time.
    package static func timeOfDay(inLine line: UnsafeRawBufferPointer) -> TimeOfDay? {
        guard line.count > 7, line[0] == UInt8(ascii: "$"), line[1] != UInt8(ascii: "P"),
              line[6] == UInt8(ascii: ","), let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return nil }
        var reader = TimeFieldReader()
        guard withType(of: SentenceFormatter(line[3], line[4], line[5]), &reader),
              let field = reader.index else { return nil }
        var start = 7
        for _ in 1..<field {
            while start < line.count, line[start] != UInt8(ascii: ",") { start += 1 }
            start += 1
        }
        var end = start
        while end < line.count, line[end] != UInt8(ascii: ","), line[end] != UInt8(ascii: "*"),
              line[end] != UInt8(ascii: "\r"), line[end] != UInt8(ascii: "\n") { end += 1 }
        guard end <= line.count else { return nil }
        return try? NMEAField(base: base + start, count: end - start).timeOfDay()
    }

    private struct TimeFieldReader: SentenceTypeVisitor {
        var index: Int?
        mutating func visit<Sentence: TalkerSentence>(_ type: Sentence.Type) { index = Sentence.timeField }
    }
}
