/// NAV-TIMEGPS (`0x01 0x20`): GPS time, the week and the leap seconds, with their validity.
public struct NAVTIMEGPS: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x20)
    static let name = "NAV-TIMEGPS"
    static let minimumLength = 16

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The fraction of the millisecond, in nanoseconds (-500,000 to 500,000).
    public var fractionalTimeOfWeek: Int32?
    /// The GPS week number (continuous, not modulo 1,024); `nil` unless valid.
    public var week: Int?
    /// GPS time minus UTC, in seconds; `nil` unless valid (`leapSValid`).
    public var leapSeconds: Int?
    /// Whether the time of week is valid.
    public var timeOfWeekIsValid: Bool
    /// The time's accuracy estimate, in seconds.
    @CompactDouble public var timeAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        fractionalTimeOfWeek = payload.i4(4)
        let valid = payload.u1(11) ?? 0
        timeOfWeekIsValid = valid & 0x01 != 0
        week = valid & 0x02 != 0 ? payload.i2(8).map(Int.init) : nil
        leapSeconds = valid & 0x04 != 0 ? payload.i1(10).map(Int.init) : nil
        timeAccuracy = payload.divided(payload.u4(12), by: 1e9)
    }

    func teach(_ clock: inout UBXEpochClock) {
        if let leapSeconds { clock.noteLeapSeconds(leapSeconds) }
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let leapSeconds { epoch.noteLeapSeconds(leapSeconds) }
        if let week, timeOfWeekIsValid, let timeOfWeek {
            epoch.ubx.gpsTime = GPSTime(week: week, timeOfWeek: timeOfWeek, fraction: fractionalTimeOfWeek)
        }
        if let value = timeAccuracy { epoch.ubx.accuracy.time = value }
    }
}
