/// A UBX message that nmeastream decodes, as a plain value.
///
/// Each message type reads its fields on its own from the payload, at u-blox's offsets: a field
/// that cannot hold what it says (a month of 13, a fix type u-blox never defined) decodes as
/// `nil` and is reported as a ``MalformedField`` whose ``MalformedField/fieldIndex`` is the
/// field's byte offset in the payload; a payload shorter than its type costs the fields it
/// lacks. u-blox's interface descriptions and gpsd's `driver_ubx.c` are the references.
public enum UBXMessage: Sendable, Hashable {
    /// NAV-PVT: the fix, time and their accuracies (u-blox 7 and later).
    case navPVT(NAVPVT)
    /// NAV-DOP: the dilutions of precision.
    case navDOP(NAVDOP)
    /// NAV-TIMEUTC: UTC time and its validity.
    case navTimeUTC(NAVTIMEUTC)
    /// NAV-TIMEGPS: GPS time, the week and the leap seconds, with their validity.
    case navTimeGPS(NAVTIMEGPS)
    /// NAV-HPPOSLLH: the position to a tenth of a millimetre (high-precision receivers).
    case navHPPOSLLH(NAVHPPOSLLH)
    /// NAV-EOE: the end of a navigation epoch's messages.
    case navEOE(NAVEOE)
    /// NAV-SOL: the fix in Earth-centred coordinates (u-blox 5 and 6).
    case navSOL(NAVSOL)
    /// NAV-POSLLH: the position (u-blox 5 and later).
    case navPOSLLH(NAVPOSLLH)
    /// NAV-VELNED: the velocity (u-blox 5 and later).
    case navVELNED(NAVVELNED)
    /// NAV-SVINFO: the satellites, one channel each (u-blox 5 to 7).
    case navSVINFO(NAVSVINFO)
    /// NAV-SAT: the satellites, of every constellation (u-blox 8 and later).
    case navSAT(NAVSAT)
    /// NAV-SIG: the signals, several per satellite (u-blox 9 and later).
    case navSIG(NAVSIG)
    /// NAV-POSECEF: the position in Earth-centred coordinates.
    case navPOSECEF(NAVPOSECEF)
    /// NAV-VELECEF: the velocity in Earth-centred coordinates.
    case navVELECEF(NAVVELECEF)
    /// NAV-TIMELS: the leap seconds, and the next change announced.
    case navTIMELS(NAVTIMELS)
    /// HNR-PVT: a high-rate fix between the navigation epochs (receivers with sensors).
    case hnrPVT(HNRPVT)
    /// TIM-TP: the next time pulse and its quantization error (timing receivers).
    case timTP(TIMTP)

    /// Decodes `frame`, or returns `nil` when nmeastream does not decode its kind (it is still
    /// counted and handed out raw). The fields that could not be read come with it.
    public static func decode(_ frame: UBXFrame) -> (message: UBXMessage, malformed: [MalformedField])? {
        guard let entry = entries[frame.kind] else { return nil }
        var malformed: [MalformedField] = []
        let message = entry.decode(frame.payload, &malformed)
        return (message, malformed)
    }

    /// The kinds nmeastream decodes, with their names.
    public static var decodedKinds: [UBXMessageKind] { entries.keys.sorted() }

    /// The kinds that carry a position, a fix type or a time: a receiver that sends one of them
    /// gives fixes (the rest complete them).
    public static let navigationKinds: Set<UBXMessageKind> = [NAVPVT.kind, NAVSOL.kind, NAVPOSLLH.kind, NAVHPPOSLLH.kind,
                                                               NAVPOSECEF.kind, NAVTIMEUTC.kind, NAVTIMEGPS.kind,
                                                               HNRPVT.kind]

    /// The kinds whose payload starts with the GPS time of week, in milliseconds, that they
    /// belong to: every kind decoded but TIM-TP (whose time is the next pulse's), and NAV-STATUS
    /// and NAV-CLOCK, which are not decoded. What a paced replay times a frame by.
    public static let timedKinds: Set<UBXMessageKind> = Set(entries.keys).subtracting([TIMTP.kind]).union([
        UBXMessageKind(messageClass: 0x01, messageID: 0x03), UBXMessageKind(messageClass: 0x01, messageID: 0x22),
    ])

    struct Entry: Sendable {
        let name: String
        let decode: @Sendable (UBXPayload, inout [MalformedField]) -> UBXMessage
    }

    /// The one table of the messages decoded: kind, name and type.
    static let entries: [UBXMessageKind: Entry] = {
        func entry<Message: UBXMessageType>(_ type: Message.Type, _ wrap: @escaping @Sendable (Message) -> UBXMessage)
            -> (UBXMessageKind, Entry) {
            (Message.kind, Entry(name: Message.name, decode: { payload, malformed in
                if payload.count < Message.minimumLength {
                    malformed.append(MalformedField(payload.count, expected: "\(Message.minimumLength) payload bytes for \(Message.name), not \(payload.count)"))
                }
                return wrap(Message(payload, malformed: &malformed))
            }))
        }
        return Dictionary(uniqueKeysWithValues: [
            entry(NAVPVT.self, UBXMessage.navPVT),
            entry(NAVDOP.self, UBXMessage.navDOP),
            entry(NAVTIMEUTC.self, UBXMessage.navTimeUTC),
            entry(NAVTIMEGPS.self, UBXMessage.navTimeGPS),
            entry(NAVHPPOSLLH.self, UBXMessage.navHPPOSLLH),
            entry(NAVEOE.self, UBXMessage.navEOE),
            entry(NAVSOL.self, UBXMessage.navSOL),
            entry(NAVPOSLLH.self, UBXMessage.navPOSLLH),
            entry(NAVVELNED.self, UBXMessage.navVELNED),
            entry(NAVSVINFO.self, UBXMessage.navSVINFO),
            entry(NAVSAT.self, UBXMessage.navSAT),
            entry(NAVSIG.self, UBXMessage.navSIG),
            entry(NAVPOSECEF.self, UBXMessage.navPOSECEF),
            entry(NAVVELECEF.self, UBXMessage.navVELECEF),
            entry(NAVTIMELS.self, UBXMessage.navTIMELS),
            entry(HNRPVT.self, UBXMessage.hnrPVT),
            entry(TIMTP.self, UBXMessage.timTP),
        ])
    }()
}

extension UBXMessageKind {
    static let names: [UBXMessageKind: String] = UBXMessage.entries.mapValues(\.name)
}

/// A UBX message type that nmeastream decodes.
protocol UBXMessageType: Sendable, Hashable {
    /// Its class and id.
    static var kind: UBXMessageKind { get }
    /// u-blox's name, such as `NAV-PVT`.
    static var name: String { get }
    /// The payload's length, or the length of its fixed part when blocks repeat after it.
    static var minimumLength: Int { get }
    /// Reads each field on its own; what cannot be read is noted in `malformed`.
    init(_ payload: UBXPayload, malformed: inout [MalformedField])

    /// The GPS time of week of the message's navigation epoch, in milliseconds: what ties an
    /// epoch's messages together; `nil` when the payload ends before it.
    var timeOfWeek: UInt32? { get }

    /// Tells `clock` what the message says of GPS time against UTC, before the message is
    /// placed in its epoch (NAV-PVT, NAV-TIMEUTC and NAV-TIMEGPS do).
    func teach(_ clock: inout UBXEpochClock)

    /// Merges the message into the epoch being built (into its ``UBXEpochFields``).
    func apply(to epoch: inout EpochAccumulator)

    /// Takes the message into `assembler`: by default through the cycle logic into the epoch.
    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink)
}

extension UBXMessageType {
    func teach(_ clock: inout UBXEpochClock) {}

    @inline(__always)
    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.merge(ubx: self, into: &sink)
    }
}

/// Receives a decoded UBX message as its own type.
protocol UBXMessageVisitor {
    mutating func visit<Message: UBXMessageType>(_ message: Message)
}

extension UBXMessage {
    /// Calls `visitor` with the message as its own type.
    func accept<Visitor: UBXMessageVisitor>(_ visitor: inout Visitor) {
        switch self {
        case .navPVT(let message): visitor.visit(message)
        case .navDOP(let message): visitor.visit(message)
        case .navTimeUTC(let message): visitor.visit(message)
        case .navTimeGPS(let message): visitor.visit(message)
        case .navHPPOSLLH(let message): visitor.visit(message)
        case .navEOE(let message): visitor.visit(message)
        case .navSOL(let message): visitor.visit(message)
        case .navPOSLLH(let message): visitor.visit(message)
        case .navVELNED(let message): visitor.visit(message)
        case .navSVINFO(let message): visitor.visit(message)
        case .navSAT(let message): visitor.visit(message)
        case .navSIG(let message): visitor.visit(message)
        case .navPOSECEF(let message): visitor.visit(message)
        case .navVELECEF(let message): visitor.visit(message)
        case .navTIMELS(let message): visitor.visit(message)
        case .hnrPVT(let message): visitor.visit(message)
        case .timTP(let message): visitor.visit(message)
        }
    }
}

extension UBXPayload {
    /// A field in its unit: the raw count over the counts per unit (100 for a field in
    /// hundredths), or `nil` when the payload ends before it. Dividing by a power of ten gives
    /// the decimal value's nearest double, which multiplying by its inverse does not.
    @inline(__always)
    func divided<Raw: BinaryInteger>(_ raw: Raw?, by countsPerUnit: Double) -> Double? {
        raw.map { Double($0) / countsPerUnit }
    }

    /// The GPS time of week, in milliseconds, that every NAV message starts with.
    var timeOfWeek: UInt32? { u4(0) }
}

extension [MalformedField] {
    /// A longitude in degrees, `nil` and noted as the field at `offset` outside ±180°.
    mutating func longitude(_ degrees: Double?, at offset: Int) -> Double? {
        checking(degrees, at: offset, expected: "a longitude within ±180°") { abs($0) <= 180 }
    }

    /// A latitude in degrees, `nil` and noted as the field at `offset` outside ±90°.
    mutating func latitude(_ degrees: Double?, at offset: Int) -> Double? {
        checking(degrees, at: offset, expected: "a latitude within ±90°") { abs($0) <= 90 }
    }

    /// `value` when `isValid` holds; otherwise `nil`, noted as the field at `offset` that
    /// should have held what `expected` says.
    @inline(__always)
    mutating func checking<Value>(_ value: Value?, at offset: Int, expected: String, _ isValid: (Value) -> Bool) -> Value? {
        guard let value else { return nil }
        guard isValid(value) else {
            append(MalformedField(offset, expected: expected))
            return nil
        }
        return value
    }
}
