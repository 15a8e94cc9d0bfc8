/// NAV-SAT (`0x01 0x35`): the satellites in view, of every constellation (u-blox 8 and later).
public struct NAVSAT: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x35)
    static let name = "NAV-SAT"
    static let minimumLength = 8

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The satellites, in the receiver's order.
    public var satellites: [UBXSatellite]

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        satellites = []
        // Version 1 is the only one u-blox has defined; another would not be read the same way.
        guard malformed.checking(payload.u1(4), at: 4, expected: "message version 1", { $0 == 1 }) != nil else { return }
        let count = payload.blockCount(at: 5, headerLength: 8, size: 12, malformed: &malformed)
        satellites.reserveCapacity(count)
        for index in 0..<count {
            let block = 8 + 12 * index
            let flags = payload.u4(block + 8) ?? 0
            satellites.append(UBXSatellite(
                gnssID: payload.u1(block) ?? 0, svID: payload.u1(block + 1) ?? 0,
                carrierToNoise: Int(payload.u1(block + 2) ?? 0),
                elevation: UBXSatellite.elevation(payload.i1(block + 3)),
                azimuth: UBXSatellite.azimuth(payload.i2(block + 4)),
                pseudorangeResidual: payload.divided(payload.i2(block + 6), by: 10),
                isUsed: flags & 0x08 != 0,
                health: UBXHealth(rawValue: UInt8(flags >> 4 & 3)),
                qualityIndicator: Int(flags & 7),
                hasCorrections: flags & 0x40 != 0))
        }
    }

    func apply(to epoch: inout EpochAccumulator) {}

    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.merge(ubx: self, into: &sink)
        assembler.addUBX(SatelliteView(ubx: .satellites, satellites: satellites.map(\.satellite)), into: &sink)
    }
}
