/// NAV-VELECEF (`0x01 0x11`): the velocity in Earth-centred, Earth-fixed coordinates.
public struct NAVVELECEF: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x11)
    static let name = "NAV-VELECEF"
    static let minimumLength = 20

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// Velocity x, in m/s.
    @CompactDouble public var vx: Double?
    /// Velocity y, in m/s.
    @CompactDouble public var vy: Double?
    /// Velocity z, in m/s.
    @CompactDouble public var vz: Double?
    /// The speed accuracy estimate, in m/s.
    @CompactDouble public var speedAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        vx = payload.divided(payload.i4(4), by: 100)
        vy = payload.divided(payload.i4(8), by: 100)
        vz = payload.divided(payload.i4(12), by: 100)
        speedAccuracy = payload.divided(payload.u4(16), by: 100)
    }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.ubx.ecef.merge(ECEFSolution(vx: vx, vy: vy, vz: vz, velocityAccuracy: speedAccuracy))
    }
}
