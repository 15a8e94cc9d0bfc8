/// A decoded NMEA 0183 sentence of one of the types this module understands.
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

    /// The sentence's talker; `nil` for proprietary sentences.
    public var talker: Talker? {
        switch self {
        case .gga(let s): s.talker
        case .rmc(let s): s.talker
        case .gsa(let s): s.talker
        case .gsv(let s): s.talker
        case .vtg(let s): s.talker
        case .gll(let s): s.talker
        case .zda(let s): s.talker
        case .gst(let s): s.talker
        case .gns(let s): s.talker
        case .gbs(let s): s.talker
        case .dtm(let s): s.talker
        case .txt(let s): s.talker
        case .hdt(let s): s.talker
        case .pgrmz: nil
        }
    }

    /// The time of day the sentence carries, for the types that carry one.
    public var time: TimeOfDay? {
        switch self {
        case .gga(let s): s.time
        case .rmc(let s): s.time
        case .gll(let s): s.time
        case .zda(let s): s.time
        case .gst(let s): s.time
        case .gns(let s): s.time
        case .gbs(let s): s.time
        default: nil
        }
    }

    /// Decodes `raw` when its type is one this module knows.
    ///
    /// - Returns: the decoded sentence, or `nil` for a sentence type this module does not decode
    ///   (most proprietary sentences, AIS, and the many others: they remain available raw).
    /// - Throws: ``MalformedSentence`` naming the field that is not what the type says.
    public static func decode(_ raw: RawSentence) throws(MalformedSentence) -> NMEASentence? {
        var builder = Builder()
        guard try decode(raw, into: &builder) else { return nil }
        return builder.sentence
    }

    /// Decodes `raw` and hands the typed value to `visitor`, with no enum in between.
    /// Returns `false` for a type this module does not decode.
    static func decode<Visitor: SentenceVisitor>(_ raw: RawSentence, into visitor: inout Visitor) throws(MalformedSentence) -> Bool {
        // A standard address is five bytes, the talker then the formatter: read here as bytes,
        // without the optionals of ``RawSentence/talker`` and ``RawSentence/formatter``.
        let address = raw.address
        guard address.count == 5, !raw.isProprietary else {
            guard raw.isProprietary, address.equals("PGRMZ") else { return false }
            visitor.visit(try PGRMZ(raw))
            return true
        }
        let talker = Talker(address[0], address[1])
        switch UInt32(address[2]) << 16 | UInt32(address[3]) << 8 | UInt32(address[4]) {
        case 0x47_47_41: visitor.visit(try GGA(raw, talker: talker))
        case 0x52_4D_43: visitor.visit(try RMC(raw, talker: talker))
        case 0x47_53_41: visitor.visit(try GSA(raw, talker: talker))
        case 0x47_53_56: visitor.visit(try GSV(raw, talker: talker))
        case 0x56_54_47: visitor.visit(try VTG(raw, talker: talker))
        case 0x47_4C_4C: visitor.visit(try GLL(raw, talker: talker))
        case 0x5A_44_41: visitor.visit(try ZDA(raw, talker: talker))
        case 0x47_53_54: visitor.visit(try GST(raw, talker: talker))
        case 0x47_4E_53: visitor.visit(try GNS(raw, talker: talker))
        case 0x47_42_53: visitor.visit(try GBS(raw, talker: talker))
        case 0x44_54_4D: visitor.visit(try DTM(raw, talker: talker))
        case 0x54_58_54: visitor.visit(try TXT(raw, talker: talker))
        case 0x48_44_54: visitor.visit(try HDT(raw, talker: talker))
        default: return false
        }
        return true
    }

    private struct Builder: SentenceVisitor {
        var sentence: NMEASentence?
        mutating func visit(_ s: GGA) { sentence = .gga(s) }
        mutating func visit(_ s: RMC) { sentence = .rmc(s) }
        mutating func visit(_ s: GSA) { sentence = .gsa(s) }
        mutating func visit(_ s: GSV) { sentence = .gsv(s) }
        mutating func visit(_ s: VTG) { sentence = .vtg(s) }
        mutating func visit(_ s: GLL) { sentence = .gll(s) }
        mutating func visit(_ s: ZDA) { sentence = .zda(s) }
        mutating func visit(_ s: GST) { sentence = .gst(s) }
        mutating func visit(_ s: GNS) { sentence = .gns(s) }
        mutating func visit(_ s: GBS) { sentence = .gbs(s) }
        mutating func visit(_ s: DTM) { sentence = .dtm(s) }
        mutating func visit(_ s: TXT) { sentence = .txt(s) }
        mutating func visit(_ s: HDT) { sentence = .hdt(s) }
        mutating func visit(_ s: PGRMZ) { sentence = .pgrmz(s) }
    }
}

/// Receives each decoded sentence as its own type.
protocol SentenceVisitor {
    mutating func visit(_ s: GGA)
    mutating func visit(_ s: RMC)
    mutating func visit(_ s: GSA)
    mutating func visit(_ s: GSV)
    mutating func visit(_ s: VTG)
    mutating func visit(_ s: GLL)
    mutating func visit(_ s: ZDA)
    mutating func visit(_ s: GST)
    mutating func visit(_ s: GNS)
    mutating func visit(_ s: GBS)
    mutating func visit(_ s: DTM)
    mutating func visit(_ s: TXT)
    mutating func visit(_ s: HDT)
    mutating func visit(_ s: PGRMZ)
}
