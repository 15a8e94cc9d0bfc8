/// NAV-SOL (`0x01 0x06`): the fix in Earth-centred, Earth-fixed coordinates (u-blox 5 and 6;
/// later receivers still send it when asked).
public struct NAVSOL: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x06)
    static let name = "NAV-SOL"
    static let minimumLength = 52

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The fraction of the millisecond, in nanoseconds.
    public var fractionalTimeOfWeek: Int32?
    /// The GPS week number; `nil` unless the receiver marks it valid (`WKNSET`).
    public var week: Int?
    /// Whether the time of week is valid (`TOWSET`).
    public var timeOfWeekIsValid: Bool
    /// The kind of fix.
    public var fixType: UBXFixType?
    /// Whether the fix is valid within the receiver's limits (`GPSfixOK`).
    public var fixIsValid: Bool
    /// Whether differential corrections were applied.
    public var isDifferential: Bool
    /// Position, x, y and z, in metres (ECEF).
    @CompactDouble public var ecefX: Double?
    /// See ``ecefX``.
    @CompactDouble public var ecefY: Double?
    /// See ``ecefX``.
    @CompactDouble public var ecefZ: Double?
    /// The 3D position accuracy estimate, in metres.
    @CompactDouble public var positionAccuracy: Double?
    /// Velocity, x, y and z, in m/s (ECEF).
    @CompactDouble public var ecefVX: Double?
    /// See ``ecefVX``.
    @CompactDouble public var ecefVY: Double?
    /// See ``ecefVX``.
    @CompactDouble public var ecefVZ: Double?
    /// The speed accuracy estimate, in m/s.
    @CompactDouble public var speedAccuracy: Double?
    /// Position dilution of precision.
    @CompactDouble public var pdop: Double?
    /// The satellites used in the fix.
    public var satellitesUsed: Int?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        fractionalTimeOfWeek = payload.i4(4)
        let flags = payload.u1(11) ?? 0
        week = flags & 0x04 != 0 ? payload.i2(8).map(Int.init) : nil
        timeOfWeekIsValid = flags & 0x08 != 0
        fixType = UBXFixType.read(payload, at: 10, malformed: &malformed)
        fixIsValid = flags & 0x01 != 0
        isDifferential = flags & 0x02 != 0
        ecefX = payload.divided(payload.i4(12), by: 100)
        ecefY = payload.divided(payload.i4(16), by: 100)
        ecefZ = payload.divided(payload.i4(20), by: 100)
        positionAccuracy = payload.divided(payload.u4(24), by: 100)
        ecefVX = payload.divided(payload.i4(28), by: 100)
        ecefVY = payload.divided(payload.i4(32), by: 100)
        ecefVZ = payload.divided(payload.i4(36), by: 100)
        speedAccuracy = payload.divided(payload.u4(40), by: 100)
        pdop = payload.divided(payload.u2(44), by: 100)
        satellitesUsed = payload.u1(47).map(Int.init)
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let fixType {
            epoch.ubx.status = UBXFixStatus(fixType: fixType, isWithinMasks: fixIsValid, isDifferential: isDifferential)
        }
        if let week, timeOfWeekIsValid, let timeOfWeek {
            epoch.ubx.gpsTime = GPSTime(week: week, timeOfWeek: timeOfWeek, fraction: fractionalTimeOfWeek)
            epoch.ubx.timeValidity = epoch.ubx.timeValidity ?? TimeValidity(dateIsValid: true, timeIsValid: true)
        }
        epoch.ubx.ecef.merge(ECEFSolution(x: ecefX, y: ecefY, z: ecefZ, positionAccuracy: positionAccuracy,
                                          vx: ecefVX, vy: ecefVY, vz: ecefVZ, velocityAccuracy: speedAccuracy))
        if let value = speedAccuracy { epoch.ubx.accuracy.speed = value }
        if let value = satellitesUsed { epoch.ubx.satellitesUsed = value }
        if let pdop, pdop < 99.99 { epoch.ubx.pdop = pdop }
    }
}
