/// NAV-HPPOSLLH (`0x01 0x14`): the position to a tenth of a millimetre (high-precision
/// receivers such as the ZED-F9P).
public struct NAVHPPOSLLH: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x14)
    static let name = "NAV-HPPOSLLH"
    static let minimumLength = 36

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// Degrees, east positive, to 1e-9°; `nil` when the receiver marks the position invalid.
    @CompactDouble public var longitude: Double?
    /// Degrees, north positive, to 1e-9°; `nil` likewise.
    @CompactDouble public var latitude: Double?
    /// Height above the WGS 84 ellipsoid, in metres, to 0.1 mm.
    @CompactDouble public var heightAboveEllipsoid: Double?
    /// Height above mean sea level, in metres, to 0.1 mm.
    @CompactDouble public var altitudeMSL: Double?
    /// The horizontal accuracy estimate, in metres.
    @CompactDouble public var horizontalAccuracy: Double?
    /// The vertical accuracy estimate, in metres.
    @CompactDouble public var verticalAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.u4(4)
        // flags bit 0 (byte 3): the position is not valid.
        let invalid = (payload.u1(3) ?? 0) & 0x01 != 0
        // The coarse part in units of 1e-7° (1 mm), the fine in 1e-9° (0.1 mm): 100 (10) fine per coarse.
        func combined(_ offset: Int, _ fine: Int, finePerCoarse: Int64, finePerUnit: Double) -> Double? {
            guard !invalid, let whole = payload.i4(offset), let part = payload.i1(fine) else { return nil }
            return Double(Int64(whole) * finePerCoarse + Int64(part)) / finePerUnit
        }
        longitude = malformed.longitude(combined(8, 24, finePerCoarse: 100, finePerUnit: 1e9), at: 8)
        latitude = malformed.latitude(combined(12, 25, finePerCoarse: 100, finePerUnit: 1e9), at: 12)
        heightAboveEllipsoid = combined(16, 26, finePerCoarse: 10, finePerUnit: 1e4)
        altitudeMSL = combined(20, 27, finePerCoarse: 10, finePerUnit: 1e4)
        horizontalAccuracy = payload.divided(payload.u4(28), by: 1e4)
        verticalAccuracy = payload.divided(payload.u4(32), by: 1e4)
    }

    func apply(to epoch: inout EpochAccumulator) {
        epoch.ubx.setPosition(latitude: latitude, longitude: longitude, altitudeHAE: heightAboveEllipsoid,
                              altitudeMSL: altitudeMSL, precise: true)
        if let value = horizontalAccuracy { epoch.ubx.accuracy.horizontal = value }
        if let value = verticalAccuracy { epoch.ubx.accuracy.vertical = value }
    }
}
