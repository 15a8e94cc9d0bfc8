/// What the UBX messages of one epoch said, kept apart from what its NMEA sentences said, and
/// laid over them when the epoch is finished: a field UBX gave is UBX's, whatever order the
/// two protocols came in; a field only NMEA gave stays NMEA's. Field by field:
///
/// - mode and gpsd's status: NAV-PVT's or NAV-SOL's fix type and flags (``UBXFixStatus``);
/// - time: NAV-PVT's UTC, else NAV-TIMEUTC's, else NAV-SOL's or NAV-TIMEGPS's GPS time less the
///   leap seconds (the receiver's, else 18, as gpsd assumes), each only when the receiver marks
///   it valid; with it, its validity (``TimeValidity``);
/// - position and altitudes: NAV-HPPOSLLH's, else NAV-PVT's or NAV-POSLLH's, else the ECEF
///   position's (NAV-SOL, NAV-POSECEF) converted to WGS 84; the geoid separation is the
///   ellipsoid height less the altitude above sea level when both came;
/// - speed, course and climb: NAV-PVT's or NAV-VELNED's, else the ECEF velocity's;
/// - dilutions: NAV-DOP's (NAV-PVT's and NAV-SOL's PDOP where it gave none);
/// - satellites used: NAV-PVT's or NAV-SOL's count;
/// - accuracies, ECEF, magnetic declination: only UBX gives them.
///
/// Within UBX, a later message of the epoch overwrites an earlier one's field, except that
/// NAV-HPPOSLLH's position is kept over the others'.
struct UBXEpochFields: Sendable {
    var status: UBXFixStatus?
    /// UTC, from NAV-PVT or NAV-TIMEUTC; `fromPVT` when NAV-PVT gave it (it then wins).
    var utc: UTCTime?
    var utcFromPVT = false
    /// GPS time, from NAV-SOL or NAV-TIMEGPS: UTC once the leap seconds are taken off.
    var gpsTime: GPSTime?
    var timeValidity: TimeValidity?
    @CompactDouble var latitude: Double?
    @CompactDouble var longitude: Double?
    @CompactDouble var altitudeHAE: Double?
    @CompactDouble var altitudeMSL: Double?
    var highPrecision = false
    @CompactDouble var speed: Double?
    @CompactDouble var track: Double?
    @CompactDouble var climb: Double?
    var satellitesUsed: Int?
    @CompactDouble var pdop: Double?
    @CompactDouble var hdop: Double?
    @CompactDouble var vdop: Double?
    /// NAV-DOP's east, north, vertical and time dilutions.
    var dilutions: Dilutions?
    var accuracy = ReceiverAccuracy()
    var ecef = ECEFSolution()
    @CompactDouble var magneticVariation: Double?
    /// Whether any UBX message was merged into the epoch.
    var isEmpty = true

    /// Sets the position from a message, each part it gave (a latitude that could not be read
    /// costs the position, not the altitudes); NAV-HPPOSLLH's (`precise`) stays over any other's.
    mutating func setPosition(latitude: Double?, longitude: Double?, altitudeHAE: Double?, altitudeMSL: Double?,
                              precise: Bool = false) {
        guard precise || !highPrecision else { return }
        if precise { highPrecision = true }
        if let latitude, let longitude {
            self.latitude = latitude
            self.longitude = longitude
        }
        if let value = altitudeHAE { self.altitudeHAE = value }
        if let value = altitudeMSL { self.altitudeMSL = value }
    }

    /// Lays the fields over `fix`, the epoch's NMEA fields; `leapSeconds` are those to take off
    /// GPS time (`nil`: the receiver never said them).
    func overlay(onto fix: inout Fix, leapSeconds: Int?) {
        guard !isEmpty else { return }
        if let status { fix.ubxStatus = status }
        if let time = utc ?? gpsTime?.utc(leapSeconds: leapSeconds ?? GPSTime.assumedLeapSeconds) {
            fix.time = time
            fix.timeOfDay = time.timeOfDay
        }
        if let timeValidity { fix.timeValidity = timeValidity }
        var latitude = latitude, longitude = longitude, altitudeHAE = altitudeHAE
        if latitude == nil, let position = ecef.position {
            let geodetic = wgs84(fromECEF: position)
            latitude = geodetic.latitude
            longitude = geodetic.longitude
            altitudeHAE = geodetic.height
        }
        if let latitude, let longitude {
            fix.latitude = latitude
            fix.longitude = longitude
        }
        if let altitudeMSL {
            fix.altitudeMSL = altitudeMSL
            if let altitudeHAE { fix.geoidSeparation = altitudeHAE - altitudeMSL }
        } else if let altitudeHAE, fix.altitudeMSL == nil {
            // NAV-SOL's height: above the ellipsoid only (gpsd adds a sea level from its own model).
            fix.altitudeHAE = altitudeHAE
        }
        var speed = speed, track = track, climb = climb
        if speed == nil, let velocity = ecef.velocity, let latitude = fix.latitude, let longitude = fix.longitude {
            let ned = northEastDown(fromECEF: velocity, latitude: latitude, longitude: longitude)
            speed = (ned.north * ned.north + ned.east * ned.east).squareRoot()
            let course = atan2Degrees(ned.east, ned.north)
            track = course < 0 ? course + 360 : course
            climb = -ned.down
        }
        if let speed { fix.speed = speed }
        if let track { fix.track = track }
        if let climb { fix.climb = climb }
        if let satellitesUsed { fix.satellitesUsed = satellitesUsed }
        if let pdop { fix.pdop = pdop }
        if let hdop { fix.hdop = hdop }
        if let vdop { fix.vdop = vdop }
        if let dilutions { fix.dilutions = dilutions }
        if accuracy != ReceiverAccuracy() { fix.accuracy = accuracy }
        if ecef != ECEFSolution() { fix.ecef = ecef }
        if let magneticVariation { fix.magneticVariation = magneticVariation }
    }
}
