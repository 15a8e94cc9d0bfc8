/// NAV-TIMEUTC (`0x01 0x21`): UTC time and how far the receiver trusts it.
public struct NAVTIMEUTC: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x21)
    static let name = "NAV-TIMEUTC"
    static let minimumLength = 20

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The time's accuracy estimate, in seconds.
    @CompactDouble public var timeAccuracy: Double?
    /// The UTC date and time, to the nanosecond; `nil` unless the receiver marks UTC valid
    /// (`validUTC`: it knows the leap seconds).
    public var time: UTCTime?
    /// Whether the GPS time of week is valid (`validTOW`).
    public var timeOfWeekIsValid: Bool
    /// Whether the GPS week number is valid (`validWKN`).
    public var weekIsValid: Bool
    /// Whether UTC is valid: the leap seconds are known (`validUTC`).
    public var utcIsValid: Bool
    /// Which UTC the receiver steers to (bits 4 to 7 of `valid`: 0 unknown, 3 USNO, 5 EU,
    /// 6 SU, 7 NTSC...), as u-blox numbers them.
    public var utcStandard: UInt8?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        timeAccuracy = payload.divided(payload.u4(4), by: 1e9)
        let valid = payload.u1(19) ?? 0
        timeOfWeekIsValid = valid & 0x01 != 0
        weekIsValid = valid & 0x02 != 0
        utcIsValid = valid & 0x04 != 0
        utcStandard = payload.u1(19).map { $0 >> 4 }
        time = nil
        if utcIsValid, let nano = payload.i4(8), let year = payload.u2(12), let month = payload.u1(14),
           let day = payload.u1(15), let hour = payload.u1(16), let minute = payload.u1(17), let second = payload.u1(18) {
            time = UTCTime.fromReceiver(year: Int(year), month: Int(month), day: Int(day), hour: Int(hour), minute: Int(minute),
                                        second: Int(second), nanosecond: Int(nano), at: 12, malformed: &malformed)
        }
    }

    func teach(_ clock: inout UBXEpochClock) {
        if let time, let timeOfWeek, timeOfWeekIsValid, weekIsValid { clock.noteUTC(time, timeOfWeek: timeOfWeek) }
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let time, !epoch.ubx.utcFromPVT {
            epoch.ubx.utc = time
            epoch.dates.noteFullDate(time.date, at: time.timeOfDay)
        }
        // What the receiver says of its UTC, unless NAV-PVT said it: a time whose leap seconds
        // it does not know yet (`validUTC` clear) may be seconds off, whichever sentence gives
        // it, and the time service leaves it alone.
        epoch.ubx.timeValidity = epoch.ubx.timeValidity
            ?? TimeValidity(dateIsValid: weekIsValid && utcIsValid, timeIsValid: timeOfWeekIsValid && utcIsValid)
        epoch.ubx.accuracy.time = epoch.ubx.accuracy.time ?? timeAccuracy
    }
}
