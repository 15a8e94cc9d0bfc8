/// Everything a receiver said about one reporting cycle (epoch), merged from its sentences.
///
/// Every optional property is `nil` when no sentence of the epoch carried it: nmeastream never
/// fills a gap with a guess or a value from an earlier epoch. The exceptions are
/// ``leapSeconds``, a property of the time scale rather than of the fix, and
/// ``magneticVariation``, which the Earth's magnetic model gives where the receiver did not.
public struct Fix: Sendable, Hashable {
    /// UTC date and time of the epoch; `nil` while no RMC or ZDA has given a date (GGA, GLL and
    /// GNS carry a time of day only) or when the epoch had no time.
    public var time: UTCTime?
    /// UTC time of day of the epoch; `nil` when none of its sentences carried a time.
    public var timeOfDay: TimeOfDay?
    /// GPS time minus UTC, seconds (18 since 2017), as the receiver last said it (Garmin's
    /// `$PGRMF`), in this epoch or an earlier one, as gpsd keeps it; `nil` until one said it.
    public var leapSeconds: Int?
    /// The system clock's time (`CLOCK_REALTIME`) when the epoch's first byte arrived, as its
    /// reader stamped the bytes on reading them; `nil` when they were not stamped (logs, bytes
    /// in memory). Minus ``time``, it is how late the receiver's report reached the system:
    /// what a time service corrects for. Not part of a fix's equality: when a report arrived
    /// is not something the receiver said.
    public var receivedAt: UTCTime? {
        get { reception.time }
        set { reception.time = newValue }
    }
    private var reception = Reception()
    /// Fix dimension.
    public var mode: FixMode = .unknown
    /// GGA fix quality (GPS, DGPS, RTK fixed/float, estimated…); `nil` without GGA (or GNS).
    public var quality: FixQuality?
    /// NMEA 2.3 positioning mode from RMC, GLL, VTG or GNS; `nil` when none carried one.
    public var positioningMode: PositioningMode?
    /// Latitude, degrees north positive (WGS-84 unless a DTM sentence says otherwise).
    @CompactDouble public var latitude: Double?
    /// Longitude, degrees east positive.
    @CompactDouble public var longitude: Double?
    /// Altitude above mean sea level (the geoid), metres.
    @CompactDouble public var altitudeMSL: Double?
    /// Geoid separation: the geoid's height above the WGS-84 ellipsoid, metres.
    @CompactDouble public var geoidSeparation: Double?
    /// Speed over ground, metres per second: from RMC or VTG, or, when the epoch sent none,
    /// the great-circle distance from the previous fix divided by the time between them (as
    /// gpsd does; after a gap that is the average speed over the gap); `nil` when neither is
    /// possible.
    @CompactDouble public var speed: Double?
    /// Course over ground, degrees from true north.
    @CompactDouble public var track: Double?
    /// Vertical speed, metres per second (up positive), from the altitude change since the
    /// previous fix (averaged over the gap when fixes are far apart); `nil` when either
    /// altitude or time is missing.
    @CompactDouble public var climb: Double?
    /// Magnetic variation (declination), degrees, east positive: the receiver's (RMC), else,
    /// where it sent none or 0.0 (many do for "unknown"), the World Magnetic Model 2025's at
    /// the fix's position and date, as gpsd fills it from its table of the model; `nil` when neither is known (no position or date, a date outside the model's
    /// 2025 to 2030, or a pole).
    @CompactDouble public var magneticVariation: Double?
    /// Course over ground from magnetic north, degrees: VTG's, else the true ``track`` minus
    /// the ``magneticVariation`` (east variation makes the magnetic course
    /// smaller); `nil` when neither is known.
    @CompactDouble public var magneticTrack: Double?
    /// True heading from HDT, degrees (where the vessel points, not where it goes).
    @CompactDouble public var heading: Double?
    /// Satellites used in the solution: GGA's or GNS's count, else the satellites the epoch's
    /// GSA sentences list; `nil` when the epoch had none of them.
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision (the epoch's last GSA, GGA or GNS that gave one); `nil`
    /// when the receiver gave none, or only a placeholder outside 0.01 to 89.99 (0.00, 99.00,
    /// 99.99: "no fix").
    @CompactDouble public var hdop: Double?
    /// Vertical dilution of precision (GSA); `nil` as for ``hdop``.
    @CompactDouble public var vdop: Double?
    /// Position (3D) dilution of precision (GSA); `nil` as for ``hdop``.
    @CompactDouble public var pdop: Double?
    /// The receiver's east, north, vertical and time dilutions of precision (UBX's NAV-DOP);
    /// `nil` when it gave none (NMEA gives only ``hdop``, ``vdop`` and ``pdop``).
    /// Kept to the hundredth, as UBX gives them.
    public var dilutions: Dilutions? {
        get { packedDilutions.dilutions }
        set { packedDilutions = PackedDilutions(newValue) }
    }
    /// ``dilutions`` as stored (8 bytes), for what passes them on without reading them.
    private(set) var packedDilutions = PackedDilutions(nil)
    /// The receiver's error estimates from GST or GBS (one standard deviation, metres).
    public var errors: PositionErrors?
    /// The error estimates gpsd reports for the fix: the receiver's own where it gave them
    /// (``errors``), else gpsd's model of them from the dilutions of precision (see
    /// ``ErrorEstimates``). Set when the epoch is assembled; empty in a fix made by hand.
    public var errorEstimates = ErrorEstimates()
    /// Age of the differential corrections, seconds (GGA, GNS); `nil` unless the receiver gave
    /// both the age and the station, not both zero.
    @CompactDouble public var differentialAge: Double?
    /// The differential reference station (GGA, GNS); `nil` as for ``differentialAge``.
    public var differentialStation: Int?
    /// NMEA 4.10 navigational status.
    public var navigationalStatus: NavigationalStatus?
    /// What a u-blox receiver's UBX messages said of the fix (its type and corrections); `nil`
    /// for an epoch without NAV-PVT or NAV-SOL. When set, it decides ``mode`` and gpsd's
    /// `status`.
    public var ubxStatus: UBXFixStatus?
    /// The receiver's own accuracy estimates (UBX); `nil` when the epoch's messages gave none
    /// (NMEA says nothing of them: see ``errors`` for GST's).
    public var accuracy: ReceiverAccuracy?
    /// The fix in Earth-centred, Earth-fixed coordinates (UBX); `nil` when no message of the
    /// epoch gave it.
    public var ecef: ECEFSolution?
    /// How far the receiver vouches for ``time`` (UBX); `nil` when it did not say (NMEA).
    public var timeValidity: TimeValidity?
    /// The leap second the receiver announces for the end of a coming UTC day: +1 inserted,
    /// -1 deleted (UBX's NAV-TIMELS); `nil` when it announced none, or never said.
    public var leapSecondChange: Int?
    /// The receiver's next time pulse as it last announced it (UBX's TIM-TP, timing
    /// receivers): what the time service pairs with the pulse; `nil` when it never did.
    public var timePulse: TimePulse?
    /// Whether this is a high-rate fix made between the navigation epochs (u-blox's HNR-PVT,
    /// from a receiver with sensors): it runs ahead of them, so the navigation epoch of the
    /// same instant comes after it, and it has no sky, satellite count or dilutions.
    public var isHighRate = false
    /// The integrity checks the fix failed (``IntegrityCheck``), empty when it passed them or
    /// was not checked: reported beside the fix, which is never changed by them.
    public var integrity: IntegrityFlags = []

    /// An empty fix: mode unknown, every value `nil`.
    public init() {}

    /// Altitude above the WGS-84 ellipsoid (height above ellipsoid), metres: the receiver's own
    /// where it gave one apart (UBX's NAV-SOL gives no other altitude), else altitude above
    /// mean sea level plus geoid separation; `nil` unless one of those is known.
    public var altitudeHAE: Double? {
        get {
            if let heightAboveEllipsoid { return heightAboveEllipsoid }
            guard let altitudeMSL, let geoidSeparation else { return nil }
            return altitudeMSL + geoidSeparation
        }
        set { heightAboveEllipsoid = newValue }
    }
    @CompactDouble private var heightAboveEllipsoid: Double?

    /// gpsd's `status` for this fix: 0 unknown, 1 normal, 2 DGPS, 3 RTK fixed, 4 RTK float,
    /// 5 dead reckoning, 7 time only (manual), 8 simulated; `nil` when nothing says.
    public var gpsdStatus: Int? {
        if let ubxStatus { return ubxStatus.gpsdStatus }
        if let quality {
            switch quality {
            case .invalid: return 0
            case .gps: return 1
            case .dgps, .pps: return 2
            case .rtkFixed: return 3
            case .rtkFloat: return 4
            case .estimated: return 5
            case .manual: return 7
            case .simulated: return 8
            }
        }
        guard let positioningMode else { return nil }
        switch positioningMode {
        case .notValid: return 0
        case .autonomous, .precise: return 1
        case .differential: return 2
        case .rtkFixed: return 3
        case .rtkFloat: return 4
        case .estimated: return 5
        case .manual: return 7
        case .simulator: return 8
        }
    }
}

extension Fix {
    /// What made the fix other than an autonomous one, as the text outputs name it: the
    /// corrections applied (`dgps`, `rtk-float`, `rtk-fixed`, from GGA's quality or UBX's
    /// carrier solution), or another kind of solution (`estimated`, `dead-reckoning`,
    /// `gnss+dr`, `time-only`, `manual`, `simulated`, `pps`, `invalid`); `nil` for an
    /// autonomous fix, or when nothing says.
    public var solutionLabel: String? {
        if ubxStatus == nil, let quality { return quality == .gps ? nil : quality.description }
        switch gpsdStatus {
        case 2?: return "dgps"
        case 3?: return "rtk-fixed"
        case 4?: return "rtk-float"
        case 5?: return "dead-reckoning"
        case 6?: return "gnss+dr"
        case 7?: return "time-only"
        case 8?: return "simulated"
        default: return nil
        }
    }
}

/// The dimension of a fix, as gpsd numbers it.
public enum FixMode: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 0: nothing seen yet says.
    case unknown = 0
    /// 1: the receiver has no fix.
    case noFix = 1
    /// 2: latitude and longitude.
    case twoD = 2
    /// 3: latitude, longitude and altitude.
    case threeD = 3

    /// Orders by dimension.
    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `unknown`, `no-fix`, `2d`, `3d`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no-fix"
        case .twoD: "2d"
        case .threeD: "3d"
        }
    }
}

/// A receiver's estimate of its own position error: GST's and GBS's, one standard deviation,
/// metres, and Garmin's `$PGRME` figures as it gives them (``estimated``). Each value is `nil`
/// when the receiver left it empty.
public struct PositionErrors: Sendable, Hashable {
    /// Latitude error.
    @CompactDouble public var latitude: Double?
    /// Longitude error.
    @CompactDouble public var longitude: Double?
    /// Altitude error.
    @CompactDouble public var altitude: Double?
    /// RMS of the pseudorange residuals.
    @CompactDouble public var rangeRMS: Double?
    /// Semi-major axis of the error ellipse.
    @CompactDouble public var semiMajor: Double?
    /// Semi-minor axis of the error ellipse.
    @CompactDouble public var semiMinor: Double?
    /// Orientation of the semi-major axis, degrees from true north.
    @CompactDouble public var orientation: Double?
    /// Garmin's estimated errors (`$PGRME`), metres; `nil` from other receivers. Garmin does
    /// not say what confidence they are at; gpsd takes them as 50% (CEP), and so do
    /// ``ErrorEstimates``.
    public var estimated: PGRME?

    /// Creates error estimates.
    public init(latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil, rangeRMS: Double? = nil,
                semiMajor: Double? = nil, semiMinor: Double? = nil, orientation: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.rangeRMS = rangeRMS
        self.semiMajor = semiMajor
        self.semiMinor = semiMinor
        self.orientation = orientation
    }

    /// Horizontal error: the root of the sum of the squared latitude and longitude errors.
    public var horizontal: Double? {
        guard let latitude, let longitude else { return nil }
        return (latitude * latitude + longitude * longitude).squareRoot()
    }
}

/// When a fix's bytes arrived: kept with the fix, left out of its equality and hash.
private struct Reception: Sendable, Hashable {
    var time: UTCTime?
    static func == (lhs: Reception, rhs: Reception) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}


/// Four dilutions to the hundredth in 8 bytes (0xFFFF for none): a fix is copied at least once
/// per epoch, and what only UBX gives should cost an NMEA fix as little room as it can.
struct PackedDilutions: Sendable, Hashable {
    private var x: UInt16, y: UInt16, vertical: UInt16, time: UInt16

    init(_ dilutions: Dilutions?) {
        func pack(_ value: Double?) -> UInt16 { FixedPoint.pack(value, 100, none: 0xFFFF) }
        x = pack(dilutions?.x)
        y = pack(dilutions?.y)
        vertical = pack(dilutions?.vertical)
        time = pack(dilutions?.time)
    }

    var dilutions: Dilutions? {
        guard x != 0xFFFF, y != 0xFFFF, vertical != 0xFFFF, time != 0xFFFF else { return nil }
        return Dilutions(x: Double(x) / 100, y: Double(y) / 100, vertical: Double(vertical) / 100, time: Double(time) / 100)
    }
}
