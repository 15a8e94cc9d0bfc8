/// One satellite as NAV-SAT or NAV-SVINFO reports it.
public struct UBXSatellite: Sendable, Hashable {
    /// Its system, as UBX numbers them (`gnssId`, which gpsd's `gnssid` follows).
    public var gnssID: UInt8
    /// Its number within its system (`svId`: 1 to 32 for GPS, 120 to 158 for SBAS...).
    public var svID: UInt8
    /// The carrier-to-noise density, in dB-Hz (0 when not tracked).
    public var carrierToNoise: Int
    /// Degrees above the horizon; `nil` when not known.
    @CompactDouble public var elevation: Double? = nil
    /// Degrees from true north; `nil` when not known.
    @CompactDouble public var azimuth: Double? = nil
    /// The pseudorange residual, in metres; `nil` when the message has none.
    @CompactDouble public var pseudorangeResidual: Double? = nil
    /// Whether the fix used it.
    public var isUsed: Bool
    /// Its health, when the message says.
    public var health: UBXHealth?
    /// u-blox's signal quality indicator, 0 (no signal) to 7 (code and carrier locked).
    public var qualityIndicator: Int
    /// Whether differential corrections were available for it.
    public var hasCorrections: Bool

    /// Its system, when UBX defines the number.
    public var system: UBXSystem? { UBXSystem(rawValue: gnssID) }

    /// An elevation in degrees, `nil` outside ±90 (u-blox's "not known").
    static func elevation(_ raw: Int8?) -> Double? {
        raw.flatMap { abs(Int($0)) <= 90 ? Double($0) : nil }
    }

    /// An azimuth in degrees, `nil` outside 0 to 360; 360 reads as 0, as gpsd reads it.
    static func azimuth(_ raw: Int16?) -> Double? {
        raw.flatMap { (0...360).contains($0) ? Double($0 % 360) : nil }
    }
}

extension UBXPayload {
    /// How many repeated blocks of `size` bytes after `headerLength` the count at `countOffset`
    /// announces and the payload holds; a count past the payload is noted, and the blocks that
    /// are whole are read.
    func blockCount(at countOffset: Int, headerLength: Int, size: Int, malformed: inout [MalformedField]) -> Int {
        let announced = Int(u1(countOffset) ?? 0)
        let present = Swift.max(0, (count - headerLength) / size)
        if announced > present {
            malformed.append(MalformedField(countOffset, expected: "a count of \(size)-byte blocks the payload holds (\(present), not \(announced))"))
            return present
        }
        return announced
    }
}
