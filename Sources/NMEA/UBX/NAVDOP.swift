/// NAV-DOP (`0x01 0x04`): the dilutions of precision of an epoch's fix.
public struct NAVDOP: UBXMessageType {
    static let kind = UBXMessageKind(messageClass: 0x01, messageID: 0x04)
    static let name = "NAV-DOP"
    static let minimumLength = 18

    /// The GPS time of week of the epoch, in milliseconds.
    public var timeOfWeek: UInt32?
    /// Geometric dilution of precision.
    @CompactDouble public var gdop: Double?
    /// Position dilution of precision.
    @CompactDouble public var pdop: Double?
    /// Time dilution of precision.
    @CompactDouble public var tdop: Double?
    /// Vertical dilution of precision.
    @CompactDouble public var vdop: Double?
    /// Horizontal dilution of precision.
    @CompactDouble public var hdop: Double?
    /// Northing dilution of precision (gpsd's `ydop`).
    @CompactDouble public var ndop: Double?
    /// Easting dilution of precision (gpsd's `xdop`).
    @CompactDouble public var edop: Double?

    init(_ payload: UBXPayload, malformed: inout [MalformedField]) {
        timeOfWeek = payload.timeOfWeek
        // 99.99 is what u-blox sends when it has no figure.
        func dop(_ offset: Int) -> Double? {
            payload.divided(payload.u2(offset), by: 100).flatMap { $0 >= 99.99 ? nil : $0 }
        }
        gdop = dop(4)
        pdop = dop(6)
        tdop = dop(8)
        vdop = dop(10)
        hdop = dop(12)
        ndop = dop(14)
        edop = dop(16)
    }

    func apply(to epoch: inout EpochAccumulator) {
        if let value = pdop { epoch.ubx.pdop = value }
        if let value = hdop { epoch.ubx.hdop = value }
        if let value = vdop { epoch.ubx.vdop = value }
        if let edop, let ndop, let vdop, let tdop {
            epoch.ubx.dilutions = Dilutions(x: edop, y: ndop, vertical: vdop, time: tdop)
        }
    }
}
