/// NAV-VELNED (`0x01 0x12`): the velocity, north, east and down.
public struct NAVVELNED: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x12)
    static let name = "NAV-VELNED"
    static let minimumLength = 36

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// Velocity north, in m/s.
    @CompactDouble public var velocityNorth: Double?
    /// Velocity east, in m/s.
    @CompactDouble public var velocityEast: Double?
    /// Velocity down, in m/s.
    @CompactDouble public var velocityDown: Double?
    /// Speed in three dimensions, in m/s.
    @CompactDouble public var speed: Double?
    /// Ground speed, in m/s.
    @CompactDouble public var groundSpeed: Double?
    /// Heading of motion, in degrees from true north.
    @CompactDouble public var heading: Double?
    /// The speed accuracy estimate, in m/s.
    @CompactDouble public var speedAccuracy: Double?
    /// The heading accuracy estimate, in degrees.
    @CompactDouble public var headingAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        velocityNorth = payload.divided(payload.i4(4), by: 100)
        velocityEast = payload.divided(payload.i4(8), by: 100)
        velocityDown = payload.divided(payload.i4(12), by: 100)
        speed = payload.divided(payload.u4(16), by: 100)
        groundSpeed = payload.divided(payload.u4(20), by: 100)
        heading = payload.divided(payload.i4(24), by: 1e5)
        speedAccuracy = payload.divided(payload.u4(28), by: 100)
        headingAccuracy = payload.divided(payload.u4(32), by: 1e5)
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let value = groundSpeed { epoch.ubx.speed = value }
        if let value = heading { epoch.ubx.track = value }
        if let value = velocityDown.map({ -$0 }) { epoch.ubx.climb = value }
        if let value = speedAccuracy { epoch.ubx.accuracy.speed = value }
        if let value = headingAccuracy { epoch.ubx.accuracy.track = value }
    }
}
