/// The satellites one talker reports in view on one signal: a complete multi-part GSV group.
public struct SatelliteView: Sendable, Hashable {
    /// The talker of the GSV group.
    public var talker: Talker
    /// The NMEA 4.10 signal ID of the group (such as 1 for GPS L1 C/A, 7 for L5), or `nil` for
    /// receivers older than NMEA 4.10.
    public var signalID: Int?
    /// Satellites in view as the receiver counted them; `nil` when it left the field empty.
    public var satellitesInView: Int?
    /// The satellites, in the order the receiver listed them.
    public var satellites: [Satellite]
    /// The UTC time of the epoch the group arrived in; `nil` when not yet known.
    public var time: UTCTime?
    /// Which UBX message made the view, when one did (it then takes the place of the epoch's
    /// GSV views).
    var ubxSource: UBXSatelliteSource?

    /// Creates a view.
    public init(talker: Talker, signalID: Int? = nil, satellitesInView: Int? = nil, satellites: [Satellite], time: UTCTime? = nil) {
        self.talker = talker
        self.signalID = signalID
        self.satellitesInView = satellitesInView
        self.satellites = satellites
        self.time = time
    }

    /// How many of the satellites were used in the fix.
    public var usedCount: Int { satellites.count(where: \.used) }
}

/// One satellite in view.
public struct Satellite: Sendable, Hashable {
    /// Its identity, or `nil` when its NMEA number fits no known range.
    public var id: SatelliteID?
    /// The number the receiver sent.
    public var nmeaID: Int
    /// Whether the latest GSA of the epoch (or the UBX message) lists it as used in the fix.
    public var used: Bool
    // UBX's figures, packed into the padding after `used` so that a satellite takes no more
    // room than NMEA's needs (64 bytes): 0xFF and Int32.min stand for none.
    private var storedSignal: UInt8 = 0xFF
    private var storedQuality: UInt8 = 0xFF
    private var storedHealth: UInt8 = 0xFF
    private var storedResidual = Int32.min
    /// gpsd's (u-blox's) signal number, `sigid` (0 to 254), from UBX's NAV-SIG; `nil` when the
    /// satellite's view says which signal it is (NMEA 4.10's, ``SatelliteView/signalID``), or
    /// nothing does.
    public var signal: Int? {
        get { storedSignal == 0xFF ? nil : Int(storedSignal) }
        set { storedSignal = newValue.flatMap { (0..<0xFF).contains($0) ? UInt8($0) : nil } ?? 0xFF }
    }
    /// u-blox's signal quality indicator, 0 (no signal) to 7 (code and carrier locked), gpsd's
    /// `qual`; `nil` from NMEA.
    public var quality: Int? {
        get { storedQuality == 0xFF ? nil : Int(storedQuality) }
        set { storedQuality = newValue.flatMap { (0..<0xFF).contains($0) ? UInt8($0) : nil } ?? 0xFF }
    }
    /// The satellite's health, gpsd's `health`; `nil` from NMEA.
    public var health: UBXHealth? {
        get { UBXHealth(rawValue: storedHealth) }
        set { storedHealth = newValue?.rawValue ?? 0xFF }
    }
    /// The pseudorange residual, metres (to the centimetre), gpsd's `prRes`; `nil` from NMEA.
    public var pseudorangeResidual: Double? {
        get { FixedPoint.unpack(storedResidual, 100, none: .min) }
        set { storedResidual = FixedPoint.pack(newValue, 100, none: .min) }
    }
    // Compact (``CompactDouble``): a view is built from GSV parts that store them so, and a
    // satellite is then copied as it is, with no optional to wrap per value.
    /// Elevation above the horizon, degrees; `nil` when unknown (a NaN set here reads back `nil`).
    @CompactDouble public var elevation: Double?
    /// Azimuth from true north, degrees; `nil` when unknown (a NaN set here reads back `nil`).
    @CompactDouble public var azimuth: Double?
    /// Carrier-to-noise density, dB-Hz; `nil` when not tracked (a NaN set here reads back `nil`).
    @CompactDouble public var snr: Double?

    /// Creates a satellite.
    public init(id: SatelliteID?, nmeaID: Int, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil, used: Bool = false) {
        self.id = id
        self.nmeaID = nmeaID
        self.used = used
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
    }

    /// The satellite a GSV part lists, not yet marked used.
    @inline(__always)
    init(_ satellite: GSVSatellite, id: SatelliteID?) {
        self.id = id
        nmeaID = satellite.id
        used = false
        _elevation = satellite.$elevation
        _azimuth = satellite.$azimuth
        _snr = satellite.$snr
    }

    /// Equal when every property is equal (unknown values equal each other).
    public static func == (lhs: Satellite, rhs: Satellite) -> Bool {
        lhs.id == rhs.id && lhs.nmeaID == rhs.nmeaID && lhs.used == rhs.used
            && lhs.elevation == rhs.elevation && lhs.azimuth == rhs.azimuth && lhs.snr == rhs.snr
            && lhs.signal == rhs.signal && lhs.quality == rhs.quality && lhs.health == rhs.health
            && lhs.pseudorangeResidual == rhs.pseudorangeResidual
    }

    /// Hashes every property.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(nmeaID)
        hasher.combine(used)
        hasher.combine(elevation)
        hasher.combine(azimuth)
        hasher.combine(snr)
        hasher.combine(signal)
        hasher.combine(quality)
        hasher.combine(health)
        hasher.combine(pseudorangeResidual)
    }
}
