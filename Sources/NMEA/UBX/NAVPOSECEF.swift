/// NAV-POSECEF (`0x01 0x01`): the position in Earth-centred, Earth-fixed coordinates.
public struct NAVPOSECEF: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x01)
    static let name = "NAV-POSECEF"
    static let minimumLength = 20

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// Position x, in metres.
    @CompactDouble public var x: Double?
    /// Position y, in metres.
    @CompactDouble public var y: Double?
    /// Position z, in metres.
    @CompactDouble public var z: Double?
    /// The 3D position accuracy estimate, in metres.
    @CompactDouble public var positionAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        x = payload.divided(payload.i4(4), by: 100)
        y = payload.divided(payload.i4(8), by: 100)
        z = payload.divided(payload.i4(12), by: 100)
        positionAccuracy = payload.divided(payload.u4(16), by: 100)
    }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.ubx.ecef.merge(ECEFSolution(x: x, y: y, z: z, positionAccuracy: positionAccuracy))
    }
}
