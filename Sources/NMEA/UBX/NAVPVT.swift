/// NAV-PVT (`0x01 0x07`): a u-blox receiver's fix, its time and their accuracies, in one
/// message (u-blox 7 and later; 84 bytes before protocol 15, 92 since).
public struct NAVPVT: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x07)
    static let name = "NAV-PVT"
    static let minimumLength = 84

    /// The GPS time of week of the epoch, in milliseconds: what ties an epoch's messages together.
    public var timeOfWeek: UInt32?
    /// The UTC date and time, to the nanosecond; `nil` unless the receiver marks both valid.
    public var time: UTCTime?
    /// Whether the date is valid (`valid` bit 0).
    public var dateIsValid: Bool
    /// Whether the time of day is valid (`valid` bit 1).
    public var timeIsValid: Bool
    /// Whether the time is fully resolved, with no second's ambiguity (`valid` bit 2).
    public var timeIsFullyResolved: Bool
    /// Whether the receiver confirmed the date by a second source; `nil` when it cannot tell
    /// (the `confirmedAvai` flag clear, or a receiver older than protocol 19).
    public var dateIsConfirmed: Bool?
    /// Whether the receiver confirmed the time, likewise.
    public var timeIsConfirmed: Bool?
    /// The time's accuracy estimate, in seconds.
    @CompactDouble public var timeAccuracy: Double?
    /// The kind of fix.
    public var fixType: UBXFixType?
    /// Whether the fix is valid within the receiver's limits (`gnssFixOK`).
    public var fixIsValid: Bool
    /// Whether differential corrections were applied (DGPS or RTK).
    public var isDifferential: Bool
    /// Whether the solution uses carrier phase, and how; `nil` when the flags hold a value
    /// u-blox never defined.
    public var carrierSolution: UBXCarrierSolution?
    /// The satellites used in the fix.
    public var satellitesUsed: Int?
    /// Degrees, east positive; `nil` when the receiver marks the position invalid.
    @CompactDouble public var longitude: Double?
    /// Degrees, north positive; `nil` likewise.
    @CompactDouble public var latitude: Double?
    /// Height above the WGS 84 ellipsoid, in metres.
    @CompactDouble public var heightAboveEllipsoid: Double?
    /// Height above mean sea level, in metres.
    @CompactDouble public var altitudeMSL: Double?
    /// The horizontal accuracy estimate, in metres.
    @CompactDouble public var horizontalAccuracy: Double?
    /// The vertical accuracy estimate, in metres.
    @CompactDouble public var verticalAccuracy: Double?
    /// Velocity north, in m/s.
    @CompactDouble public var velocityNorth: Double?
    /// Velocity east, in m/s.
    @CompactDouble public var velocityEast: Double?
    /// Velocity down, in m/s.
    @CompactDouble public var velocityDown: Double?
    /// Ground speed, in m/s.
    @CompactDouble public var groundSpeed: Double?
    /// Heading of motion, in degrees from true north.
    @CompactDouble public var headingOfMotion: Double?
    /// The speed accuracy estimate, in m/s.
    @CompactDouble public var speedAccuracy: Double?
    /// The heading accuracy estimate, in degrees.
    @CompactDouble public var headingAccuracy: Double?
    /// Position dilution of precision.
    @CompactDouble public var pdop: Double?
    /// The vehicle's heading, in degrees; `nil` unless the receiver has one (`headVehValid`,
    /// a receiver with sensors) and sends the 92-byte message.
    @CompactDouble public var vehicleHeading: Double?
    /// Magnetic declination, in degrees (east positive); `nil` unless the receiver marks it
    /// valid (`validMag`).
    @CompactDouble public var magneticDeclination: Double?
    /// Its accuracy estimate, in degrees.
    @CompactDouble public var magneticDeclinationAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        let valid = payload.u1(11) ?? 0
        dateIsValid = valid & 0x01 != 0
        timeIsValid = valid & 0x02 != 0
        timeIsFullyResolved = valid & 0x04 != 0
        let flags = payload.u1(21) ?? 0
        let flags2 = payload.u1(22) ?? 0
        let confirmable = flags2 & 0x20 != 0
        dateIsConfirmed = confirmable ? flags2 & 0x40 != 0 : nil
        timeIsConfirmed = confirmable ? flags2 & 0x80 != 0 : nil
        time = nil
        if dateIsValid, timeIsValid {
            time = Self.time(payload, malformed: &malformed)
        }
        timeAccuracy = payload.divided(payload.u4(12), by: 1e9)
        fixType = UBXFixType.read(payload, at: 20, malformed: &malformed)
        fixIsValid = flags & 0x01 != 0
        isDifferential = flags & 0x02 != 0
        carrierSolution = malformed.checking(payload.u1(21).map { $0 >> 6 }, at: 21, expected: "a carrier solution from 0 to 2") { $0 <= 2 }
            .flatMap(UBXCarrierSolution.init(rawValue:))
        satellitesUsed = payload.u1(23).map(Int.init)
        // flags3 bit 0: the position is not valid (protocol 27 and later).
        let positionIsInvalid = (payload.u2(78) ?? 0) & 0x01 != 0
        if positionIsInvalid {
            longitude = nil
            latitude = nil
            heightAboveEllipsoid = nil
            altitudeMSL = nil
        } else {
            longitude = malformed.longitude(payload.divided(payload.i4(24), by: 1e7), at: 24)
            latitude = malformed.latitude(payload.divided(payload.i4(28), by: 1e7), at: 28)
            heightAboveEllipsoid = payload.divided(payload.i4(32), by: 1000)
            altitudeMSL = payload.divided(payload.i4(36), by: 1000)
        }
        horizontalAccuracy = payload.divided(payload.u4(40), by: 1000)
        verticalAccuracy = payload.divided(payload.u4(44), by: 1000)
        velocityNorth = payload.divided(payload.i4(48), by: 1000)
        velocityEast = payload.divided(payload.i4(52), by: 1000)
        velocityDown = payload.divided(payload.i4(56), by: 1000)
        groundSpeed = payload.divided(payload.i4(60), by: 1000)
        headingOfMotion = payload.divided(payload.i4(64), by: 1e5)
        speedAccuracy = payload.divided(payload.u4(68), by: 1000)
        headingAccuracy = payload.divided(payload.u4(72), by: 1e5)
        pdop = payload.divided(payload.u2(76), by: 100)
        vehicleHeading = flags & 0x20 != 0 ? payload.divided(payload.i4(84), by: 1e5) : nil
        let magneticIsValid = valid & 0x08 != 0
        magneticDeclination = magneticIsValid ? payload.divided(payload.i2(88), by: 100) : nil
        magneticDeclinationAccuracy = magneticIsValid ? payload.divided(payload.u2(90), by: 100) : nil
    }

    /// The UTC instant of the calendar fields at bytes 4 to 10 and the nanoseconds at
    /// `nanosecondOffset` (16 in NAV-PVT, 12 in HNR-PVT), which may be negative (the instant is
    /// then just before the second the fields name).
    static func time(_ payload: UBXPayload, nanosecondOffset: Int = 16, malformed: inout [MalformedField]) -> UTCTime? {
        guard let year = payload.u2(4), let month = payload.u1(6), let day = payload.u1(7),
              let hour = payload.u1(8), let minute = payload.u1(9), let second = payload.u1(10),
              let nano = payload.i4(nanosecondOffset) else { return nil }
        return UTCTime.fromReceiver(year: Int(year), month: Int(month), day: Int(day), hour: Int(hour), minute: Int(minute),
                                    second: Int(second), nanosecond: Int(nano), at: 4, malformed: &malformed)
    }

    func teach(_ clock: inout UBXEpochClock) {
        if let time, let timeOfWeek, timeIsFullyResolved { clock.noteUTC(time, timeOfWeek: timeOfWeek) }
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let fixType {
            epoch.ubx.status = UBXFixStatus(fixType: fixType, isWithinMasks: fixIsValid, isDifferential: isDifferential,
                                            carrierSolution: carrierSolution)
        }
        epoch.ubx.timeValidity = TimeValidity(dateIsValid: dateIsValid, timeIsValid: timeIsValid,
                                              isFullyResolved: timeIsFullyResolved, dateIsConfirmed: dateIsConfirmed,
                                              timeIsConfirmed: timeIsConfirmed)
        if let time {
            epoch.ubx.utc = time
            epoch.ubx.utcFromPVT = true
            epoch.dates.noteFullDate(time.date, at: time.timeOfDay)
        }
        epoch.ubx.setPosition(latitude: latitude, longitude: longitude, altitudeHAE: heightAboveEllipsoid,
                              altitudeMSL: altitudeMSL)
        if let value = groundSpeed { epoch.ubx.speed = value }
        if let value = headingOfMotion { epoch.ubx.track = value }
        if let value = satellitesUsed { epoch.ubx.satellitesUsed = value }
        if let value = horizontalAccuracy { epoch.ubx.accuracy.horizontal = value }
        if let value = verticalAccuracy { epoch.ubx.accuracy.vertical = value }
        if let value = speedAccuracy { epoch.ubx.accuracy.speed = value }
        if let value = headingAccuracy { epoch.ubx.accuracy.track = value }
        if let value = timeAccuracy { epoch.ubx.accuracy.time = value }
        if let value = magneticDeclination { epoch.ubx.magneticVariation = value }
    }
}

extension UTCTime {
    /// The instant a receiver gives as calendar fields and a signed nanosecond count (UBX's
    /// NAV-PVT and NAV-TIMEUTC): `nil`, noted as the field at `offset`, when the fields name no
    /// instant. Second 60 is a leap second.
    static func fromReceiver(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int,
                             at offset: Int, malformed: inout [MalformedField]) -> UTCTime? {
        guard let date = CalendarDate(year: year, month: month, day: day),
              hour < 24, minute < 60, second <= 60, abs(nanosecond) < 1_000_000_000 else {
            malformed.append(MalformedField(offset, expected: "a UTC date and time"))
            return nil
        }
        var nanoseconds = Int64((hour * 60 + minute) * 60 + second) * 1_000_000_000 + Int64(nanosecond)
        var days = date.daysSince1970
        if nanoseconds < 0 {
            // Just before midnight: the day before.
            days -= 1
            nanoseconds += 86_400_000_000_000
        }
        return UTCTime(date: CalendarDate(daysSince1970: days), timeOfDay: TimeOfDay(nanosecondsSinceMidnight: nanoseconds))
    }
}
