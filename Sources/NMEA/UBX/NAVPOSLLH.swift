/// NAV-POSLLH (`0x01 0x02`): the position, in latitude, longitude and heights.
public struct NAVPOSLLH: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x02)
    static let name = "NAV-POSLLH"
    static let minimumLength = 28

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// Degrees, east positive.
    @CompactDouble public var longitude: Double?
    /// Degrees, north positive.
    @CompactDouble public var latitude: Double?
    /// Height above the WGS 84 ellipsoid, in metres.
    @CompactDouble public var heightAboveEllipsoid: Double?
    /// Height above mean sea level, in metres.
    @CompactDouble public var altitudeMSL: Double?
    /// The horizontal accuracy estimate, in metres.
    @CompactDouble public var horizontalAccuracy: Double?
    /// The vertical accuracy estimate, in metres.
    @CompactDouble public var verticalAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        longitude = malformed.longitude(payload.divided(payload.i4(4), by: 1e7), at: 4)
        latitude = malformed.latitude(payload.divided(payload.i4(8), by: 1e7), at: 8)
        heightAboveEllipsoid = payload.divided(payload.i4(12), by: 1000)
        altitudeMSL = payload.divided(payload.i4(16), by: 1000)
        horizontalAccuracy = payload.divided(payload.u4(20), by: 1000)
        verticalAccuracy = payload.divided(payload.u4(24), by: 1000)
    }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.ubx.setPosition(latitude: latitude, longitude: longitude, altitudeHAE: heightAboveEllipsoid,
                              altitudeMSL: altitudeMSL)
        if let value = horizontalAccuracy { epoch.ubx.accuracy.horizontal = value }
        if let value = verticalAccuracy { epoch.ubx.accuracy.vertical = value }
    }
}
