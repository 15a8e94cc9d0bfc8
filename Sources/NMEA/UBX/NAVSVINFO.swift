/// NAV-SVINFO (`0x01 0x30`): the satellites, one receiver channel each (u-blox 5 to 7; later
/// receivers send NAV-SAT instead).
public struct NAVSVINFO: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x30)
    static let name = "NAV-SVINFO"
    static let minimumLength = 8

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The satellites, in channel order; a channel whose satellite number UBX gives no system
    /// for is left out.
    public var satellites: [UBXSatellite]

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        satellites = []
        let count = payload.blockCount(at: 4, headerLength: 8, size: 12, malformed: &malformed)
        satellites.reserveCapacity(count)
        for index in 0..<count {
            let block = 8 + 12 * index
            guard let number = payload.u1(block + 1), let (gnssID, svID) = Self.system(ofNumber: number) else { continue }
            let flags = payload.u1(block + 2) ?? 0
            satellites.append(UBXSatellite(
                gnssID: gnssID, svID: svID,
                carrierToNoise: Int(payload.u1(block + 4) ?? 0),
                elevation: UBXSatellite.elevation(payload.i1(block + 5)),
                azimuth: UBXSatellite.azimuth(payload.i2(block + 6)),
                pseudorangeResidual: payload.divided(payload.i4(block + 8), by: 100),
                isUsed: flags & 0x01 != 0,
                health: flags & 0x10 != 0 ? .unhealthy : nil,
                qualityIndicator: Int((payload.u1(block + 3) ?? 0) & 0x0F),
                hasCorrections: flags & 0x02 != 0))
        }
    }

    /// The system and number within it of the single satellite number older u-blox messages
    /// use: 1-32 GPS, 33-64 BeiDou, 65-96 GLONASS, 120-158 SBAS, 159-163 BeiDou, 173-182 IMES,
    /// 193-202 QZSS; `nil` for the rest (255, a GLONASS satellite not yet identified).
    static func system(ofNumber number: UInt8) -> (gnssID: UInt8, svID: UInt8)? {
        switch number {
        case 1...32: (UBXSystem.gps.rawValue, number)
        case 33...64: (UBXSystem.beidou.rawValue, number - 32)
        case 65...96: (UBXSystem.glonass.rawValue, number - 64)
        case 120...158: (UBXSystem.sbas.rawValue, number)
        case 159...163: (UBXSystem.beidou.rawValue, number - 158)
        case 173...182: (UBXSystem.imes.rawValue, number - 172)
        case 193...202: (UBXSystem.qzss.rawValue, number - 192)
        default: nil
        }
    }

    func apply(to epoch: inout EpochAccumulator) {}

    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.merge(ubx: self, into: &sink)
        assembler.addUBX(SatelliteView(ubx: .satellites, satellites: satellites.map(\.satellite)), into: &sink)
    }
}
