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
        guard let talker = raw.talker, let formatter = raw.formatter else {
            if raw.isProprietary, raw.address.equals("PGRMZ") { return .pgrmz(try PGRMZ(raw)) }
            return nil
        }
        switch formatter.code {
        case 0x47_47_41: return .gga(try GGA(raw, talker: talker))
        case 0x52_4D_43: return .rmc(try RMC(raw, talker: talker))
        case 0x47_53_41: return .gsa(try GSA(raw, talker: talker))
        case 0x47_53_56: return .gsv(try GSV(raw, talker: talker))
        case 0x56_54_47: return .vtg(try VTG(raw, talker: talker))
        case 0x47_4C_4C: return .gll(try GLL(raw, talker: talker))
        case 0x5A_44_41: return .zda(try ZDA(raw, talker: talker))
        case 0x47_53_54: return .gst(try GST(raw, talker: talker))
        case 0x47_4E_53: return .gns(try GNS(raw, talker: talker))
        case 0x47_42_53: return .gbs(try GBS(raw, talker: talker))
        case 0x44_54_4D: return .dtm(try DTM(raw, talker: talker))
        case 0x54_58_54: return .txt(try TXT(raw, talker: talker))
        case 0x48_44_54: return .hdt(try HDT(raw, talker: talker))
        default: return nil
        }
    }
}
