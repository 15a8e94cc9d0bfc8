/// NAV-SIG (`0x01 0x43`): the signals tracked, several per satellite on multi-band receivers
/// (u-blox 9 and later).
public struct NAVSIG: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x43)
    static let name = "NAV-SIG"
    static let minimumLength = 8

    /// One signal.
    public struct Signal: Sendable, Hashable {
        /// Its satellite's system (`gnssId`).
        public var gnssID: UInt8
        /// Its satellite's number within the system (`svId`).
        public var svID: UInt8
        /// The signal within the system (`sigId`: for GPS 0 is L1C/A, 3 L2CL, 4 L2CM...), as
        /// gpsd's `sigid`.
        public var signalID: UInt8
        /// GLONASS's frequency slot plus 7; 0 for the other systems.
        public var frequencyID: UInt8
        /// The pseudorange residual, in metres.
        @CompactDouble public var pseudorangeResidual: Double? = nil
        /// The carrier-to-noise density, in dB-Hz.
        public var carrierToNoise: Int
        /// u-blox's signal quality indicator, 0 to 7.
        public var qualityIndicator: Int
        /// Its health.
        public var health: UBXHealth?
        /// Whether its pseudorange was used in the fix.
        public var pseudorangeIsUsed: Bool
        /// Whether its carrier range was used (RTK).
        public var carrierRangeIsUsed: Bool
    }

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The signals, in the receiver's order.
    public var signals: [Signal]

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        signals = []
        guard malformed.checking(payload.u1(4), at: 4, expected: "message version 0", { $0 == 0 }) != nil else { return }
        let count = payload.blockCount(at: 5, headerLength: 8, size: 16, malformed: &malformed)
        signals.reserveCapacity(count)
        for index in 0..<count {
            let block = 8 + 16 * index
            let flags = payload.u2(block + 10) ?? 0
            signals.append(Signal(
                gnssID: payload.u1(block) ?? 0, svID: payload.u1(block + 1) ?? 0,
                signalID: payload.u1(block + 2) ?? 0, frequencyID: payload.u1(block + 3) ?? 0,
                pseudorangeResidual: payload.divided(payload.i2(block + 4), by: 10),
                carrierToNoise: Int(payload.u1(block + 6) ?? 0),
                qualityIndicator: Int(payload.u1(block + 7) ?? 0),
                health: UBXHealth(rawValue: UInt8(flags & 3)),
                pseudorangeIsUsed: flags & 0x08 != 0,
                carrierRangeIsUsed: flags & 0x10 != 0))
        }
    }

    func apply(to epoch: inout EpochAccumulator) {}

    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.merge(ubx: self, into: &sink)
        assembler.addUBX(SatelliteView(ubx: .signals, satellites: signals.map(\.satellite)), into: &sink)
    }
}
