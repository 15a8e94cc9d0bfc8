/// HNR-PVT (`0x28 0x00`): a high-rate fix from a receiver with sensors (u-blox's ADR and UDR
/// receivers, such as the NEO-M8U and ZED-F9R), sent up to 30 times a second between the
/// navigation epochs. Its solution fuses the last navigation epoch with the sensors, so it
/// comes out at once, while the navigation epoch of the same instant arrives hundreds of
/// milliseconds later.
///
/// It makes a fix of its own, outside the navigation epochs (see
/// ``EpochAssembler/deliverHighRate(_:into:)``), as gpsd reports each one as a TPV; it neither
/// starts nor ends a navigation epoch, and adds nothing to one.
public struct HNRPVT: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x28, messageID: 0x00)
    static let name = "HNR-PVT"
    static let minimumLength = 72

    /// The GPS time of week of the solution, in milliseconds.
    public var timeOfWeek: UInt32?
    /// The UTC date and time, to the nanosecond; `nil` unless the receiver marks both valid.
    public var time: UTCTime?
    /// Whether the date is valid (`valid` bit 0).
    public var dateIsValid: Bool
    /// Whether the time of day is valid (`valid` bit 1).
    public var timeIsValid: Bool
    /// Whether the time is fully resolved, with no second's ambiguity (`valid` bit 2).
    public var timeIsFullyResolved: Bool
    /// The kind of fix.
    public var fixType: UBXFixType?
    /// Whether the fix is valid within the receiver's limits (`gnssFixOK`).
    public var fixIsValid: Bool
    /// Whether differential corrections were applied.
    public var isDifferential: Bool
    /// Degrees, east positive.
    @CompactDouble public var longitude: Double?
    /// Degrees, north positive.
    @CompactDouble public var latitude: Double?
    /// Height above the WGS 84 ellipsoid, in metres.
    @CompactDouble public var heightAboveEllipsoid: Double?
    /// Height above mean sea level, in metres.
    @CompactDouble public var altitudeMSL: Double?
    /// Ground speed, in m/s.
    @CompactDouble public var groundSpeed: Double?
    /// Heading of motion, in degrees from true north.
    @CompactDouble public var headingOfMotion: Double?
    /// The vehicle's heading, in degrees; `nil` unless the receiver marks it valid (`headVehValid`).
    @CompactDouble public var vehicleHeading: Double?
    /// The horizontal accuracy estimate, in metres.
    @CompactDouble public var horizontalAccuracy: Double?
    /// The vertical accuracy estimate, in metres.
    @CompactDouble public var verticalAccuracy: Double?
    /// The speed accuracy estimate, in m/s.
    @CompactDouble public var speedAccuracy: Double?
    /// The heading accuracy estimate, in degrees.
    @CompactDouble public var headingAccuracy: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        let valid = payload.u1(11) ?? 0
        dateIsValid = valid & 0x01 != 0
        timeIsValid = valid & 0x02 != 0
        timeIsFullyResolved = valid & 0x04 != 0
        time = nil
        if dateIsValid, timeIsValid {
            // Unlike NAV-PVT's, the nanoseconds follow the validity byte at once.
            time = NAVPVT.time(payload, nanosecondOffset: 12, malformed: &malformed)
        }
        fixType = UBXFixType.read(payload, at: 16, malformed: &malformed)
        let flags = payload.u1(17) ?? 0
        fixIsValid = flags & 0x01 != 0
        isDifferential = flags & 0x02 != 0
        longitude = malformed.longitude(payload.divided(payload.i4(20), by: 1e7), at: 20)
        latitude = malformed.latitude(payload.divided(payload.i4(24), by: 1e7), at: 24)
        heightAboveEllipsoid = payload.divided(payload.i4(28), by: 1000)
        altitudeMSL = payload.divided(payload.i4(32), by: 1000)
        groundSpeed = payload.divided(payload.i4(36), by: 1000)
        headingOfMotion = payload.divided(payload.i4(44), by: 1e5)
        vehicleHeading = flags & 0x10 != 0 ? payload.divided(payload.i4(48), by: 1e5) : nil
        horizontalAccuracy = payload.divided(payload.u4(52), by: 1000)
        verticalAccuracy = payload.divided(payload.u4(56), by: 1000)
        speedAccuracy = payload.divided(payload.u4(60), by: 1000)
        headingAccuracy = payload.divided(payload.u4(64), by: 1e5)
    }

    /// The fix's fields, as a navigation epoch's UBX messages would give them: what
    /// ``EpochAssembler/deliverHighRate(_:into:)`` makes the fix from. A field that could not be
    /// read costs that field: with no fix type the mode is unknown, with no valid time the fix
    /// has none.
    var fields: UBXEpochFields {
        var fields = UBXEpochFields()
        fields.isEmpty = false
        if let fixType {
            fields.status = UBXFixStatus(fixType: fixType, isWithinMasks: fixIsValid, isDifferential: isDifferential)
        }
        fields.utc = time
        fields.utcFromPVT = time != nil
        fields.timeValidity = TimeValidity(dateIsValid: dateIsValid, timeIsValid: timeIsValid,
                                           isFullyResolved: timeIsFullyResolved)
        fields.setPosition(latitude: latitude, longitude: longitude, altitudeHAE: heightAboveEllipsoid,
                           altitudeMSL: altitudeMSL)
        fields.speed = groundSpeed
        fields.track = headingOfMotion
        fields.accuracy.horizontal = horizontalAccuracy
        fields.accuracy.vertical = verticalAccuracy
        fields.accuracy.speed = speedAccuracy
        fields.accuracy.track = headingAccuracy
        return fields
    }

    /// A fix of its own: nothing goes into the navigation epoch.
    func apply(to epoch: inout EpochAccumulator) {}

    func enter<Sink: EpochSink>(_ assembler: inout EpochAssembler, _ sink: inout Sink) {
        assembler.deliverHighRate(fields, into: &sink)
    }
}
