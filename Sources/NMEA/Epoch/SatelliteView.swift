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
    /// Whether the latest GSA of the epoch lists it as used in the fix.
    public var used: Bool
    // NaN for an unknown value: a view is built from GSV parts that store them so, and a
    // satellite is then copied as it is, with no optional to wrap per value.
    private var storedElevation: Double
    private var storedAzimuth: Double
    private var storedSNR: Double

    /// Elevation above the horizon, degrees; `nil` when unknown (a NaN set here reads back `nil`).
    public var elevation: Double? {
        get { storedElevation.isNaN ? nil : storedElevation }
        set { storedElevation = newValue ?? .nan }
    }
    /// Azimuth from true north, degrees; `nil` when unknown (a NaN set here reads back `nil`).
    public var azimuth: Double? {
        get { storedAzimuth.isNaN ? nil : storedAzimuth }
        set { storedAzimuth = newValue ?? .nan }
    }
    /// Carrier-to-noise density, dB-Hz; `nil` when not tracked (a NaN set here reads back `nil`).
    public var snr: Double? {
        get { storedSNR.isNaN ? nil : storedSNR }
        set { storedSNR = newValue ?? .nan }
    }

    /// Creates a satellite.
    public init(id: SatelliteID?, nmeaID: Int, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil, used: Bool = false) {
        self.id = id
        self.nmeaID = nmeaID
        self.used = used
        storedElevation = elevation ?? .nan
        storedAzimuth = azimuth ?? .nan
        storedSNR = snr ?? .nan
    }

    /// The satellite a GSV part lists, not yet marked used.
    @inline(__always)
    init(_ satellite: GSVSatellite, id: SatelliteID?) {
        self.id = id
        nmeaID = satellite.id
        used = false
        storedElevation = satellite.storedElevation
        storedAzimuth = satellite.storedAzimuth
        storedSNR = satellite.storedSNR
    }

    /// Equal when every property is equal (unknown values equal each other).
    public static func == (lhs: Satellite, rhs: Satellite) -> Bool {
        lhs.id == rhs.id && lhs.nmeaID == rhs.nmeaID && lhs.used == rhs.used
            && lhs.elevation == rhs.elevation && lhs.azimuth == rhs.azimuth && lhs.snr == rhs.snr
    }

    /// Hashes every property.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(nmeaID)
        hasher.combine(used)
        hasher.combine(elevation)
        hasher.combine(azimuth)
        hasher.combine(snr)
    }
}
