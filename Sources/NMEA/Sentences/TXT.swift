/// TXT: a text message from the receiver (antenna status, firmware, warnings).
///
/// Each field is decoded on its own; a malformed one is `nil`, reported, and costs nothing
/// else. The text itself is never malformed.
public struct TXT: Sendable, Hashable {
    /// Who sent it.
    public var talker: Talker
    /// How many sentences the message has; `nil` when empty.
    public var messageCount: Int?
    /// This sentence's number in the message; `nil` when empty.
    public var messageNumber: Int?
    /// Text identifier (u-blox: 0 error, 1 warning, 2 notice, 7 user); `nil` when empty.
    public var identifier: Int?
    /// The text, with `^hh` escapes decoded.
    public var text: String

    /// Creates a TXT value.
    public init(talker: Talker, messageCount: Int? = nil, messageNumber: Int? = nil, identifier: Int? = nil, text: String) {
        self.talker = talker
        self.messageCount = messageCount
        self.messageNumber = messageNumber
        self.identifier = identifier
        self.text = text
    }

    /// Decodes `$--TXT,xx,xx,xx,c--c` (a text that contains commas is kept whole).
    public init(_ raw: RawSentence, talker: Talker, malformed: inout [MalformedField]) {
        self.talker = talker
        messageCount = malformed.reading(try raw.integer(1))
        messageNumber = malformed.reading(try raw.integer(2))
        identifier = malformed.reading(try raw.integer(3))
        var bytes: [UInt8] = []
        for index in 4..<max(4, raw.fieldCount) {
            if index > 4 { bytes.append(UInt8(ascii: ",")) }
            let field = raw[index]
            for offset in 0..<field.count { bytes.append(field[offset]) }
        }
        text = String(decoding: Self.unescaped(bytes), as: UTF8.self)
    }

    private static func unescaped(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "^"), index + 2 < bytes.count,
               let high = hexDigitValue(bytes[index + 1]), let low = hexDigitValue(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}

extension TXT: TalkerSentence {
    static var formatter: SentenceFormatter { SentenceFormatter("T", "X", "T") }
    var sentence: NMEASentence { .txt(self) }

    /// Text for people: nothing in it bears on the fix.
    func apply(to epoch: inout EpochAccumulator) {}
    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {}
}
