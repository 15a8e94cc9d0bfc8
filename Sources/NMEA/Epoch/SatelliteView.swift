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
    /// Elevation above the horizon, degrees; `nil` when unknown.
    public var elevation: Double?
    /// Azimuth from true north, degrees; `nil` when unknown.
    public var azimuth: Double?
    /// Carrier-to-noise density, dB-Hz; `nil` when not tracked.
    public var snr: Double?
    /// Whether the latest GSA of the epoch lists it as used in the fix.
    public var used: Bool

    /// Creates a satellite.
    public init(id: SatelliteID?, nmeaID: Int, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil, used: Bool = false) {
        self.id = id
        self.nmeaID = nmeaID
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
        self.used = used
    }
}
