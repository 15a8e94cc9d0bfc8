import Platform

/// How far off a fix may be, field by field, as gpsd reports it in a `TPV` (`ept`, `epx`,
/// `epy`, `eph`, `epv`, `sep`, `eps`, `epd`, `epc`). Each value is `nil` when neither the
/// receiver nor the model below gives one.
///
/// The receiver's own figures come first: UBX's accuracy estimates (``Fix/accuracy``: `eph`,
/// `epv`, `eps` as they come, as gpsd takes them), GST's and GBS's standard deviations of latitude,
/// longitude and altitude (``Fix/errors``), then Garmin's `$PGRME` estimates, scaled as gpsd
/// scales them. Where it gave none, gpsd's model fills in
/// (`gpsd_error_model` in gpsd's `libgpsd_core.c`; its authors call the figures guesses, and
/// so do we): a dilution of precision times a user-equivalent range error (UERE) of 15 m
/// horizontally per axis, 23 m vertically and 19 m for `eph` and `sep` (3.75, 5.75 and 4.75 m
/// with differential corrections, gpsd's status 2); the dilutions are the receiver's, else
/// those of the epoch's satellite geometry (``Sky/geometry``). The speed, course and climb
/// errors come from this fix's and the previous fix's position errors and the time between
/// them.
public struct ErrorEstimates: Sendable, Hashable {
    /// Time error, seconds (`ept`): half the resolution of a receiver's clock, 0.005 s, for
    /// every fix with a time, as gpsd assumes.
    @CompactDouble public var time: Double?
    /// Longitude (east-west) error, metres (`epx`).
    @CompactDouble public var longitude: Double?
    /// Latitude (north-south) error, metres (`epy`).
    @CompactDouble public var latitude: Double?
    /// Horizontal error, metres (`eph`).
    @CompactDouble public var horizontal: Double?
    /// Vertical error, metres (`epv`); modelled for a 3D fix only.
    @CompactDouble public var vertical: Double?
    /// Spherical (3D) error, metres (`sep`).
    @CompactDouble public var spherical: Double?
    /// Speed error, metres per second (`eps`).
    @CompactDouble public var speed: Double?
    /// Course error, degrees (`epd`); `nil` also when the fix moved less than its own
    /// position error since the previous one, where any course is possible.
    @CompactDouble public var track: Double?
    /// Climb error, metres per second (`epc`); for a 3D fix only.
    @CompactDouble public var climb: Double?

    /// No estimates.
    public init() {}

    /// Whether no value is known.
    public var isEmpty: Bool { self == ErrorEstimates() }
}

/// gpsd's user-equivalent range errors, metres ("95% confidence", gpsd's source says).
private struct RangeError {
    var horizontal: Double
    var vertical: Double
    var position: Double

    static let autonomous = RangeError(horizontal: 15, vertical: 23, position: 19)
    static let differential = RangeError(horizontal: 3.75, vertical: 5.75, position: 4.75)
}

extension ErrorEstimates {
    /// The estimates for `fix`, whose epoch's satellite geometry `geometry` gives (asked only
    /// when the receiver's figures leave something to model: a sky's geometry is most of the
    /// model's cost), given the fix delivered before it.
    init(for fix: borrowing Fix, geometry: () -> Dilutions?, previous: FixReference?) {
        self.init()
        if fix.time != nil { time = 0.005 }
        guard fix.mode >= .twoD else { return }
        let errors = fix.errors ?? PositionErrors()
        // Read field by field: most fixes have none, and a whole copy costs every fix.
        let accuracy = fix.accuracy
        let receiverHDOP = fix.hdop, receiverVDOP = fix.vdop, receiverPDOP = fix.pdop
        let modelled = errors.longitude == nil || errors.latitude == nil || receiverHDOP == nil || receiverPDOP == nil
            || (receiverVDOP == nil && errors.altitude == nil)
        // The receiver's own dilutions (UBX's NAV-DOP) before the sky's geometry.
        let geometry = modelled ? fix.dilutions ?? geometry() : nil
        let range = fix.gpsdStatus == 2 ? RangeError.differential : .autonomous
        let hdop = receiverHDOP ?? geometry?.horizontal
        let vdop = receiverVDOP ?? geometry?.vertical
        let pdop = receiverPDOP ?? geometry?.position
        // Garmin's estimates, taken as gpsd takes them: 50% figures (CEP) scaled to gpsd's 95%,
        // the horizontal one shared between the two axes.
        let garmin = errors.estimated
        let garminAxis = garmin?.horizontal.map { $0 / 2.squareRoot() * Self.garminScale }
        longitude = errors.longitude ?? garminAxis ?? geometry.map { $0.x * range.horizontal }
        latitude = errors.latitude ?? garminAxis ?? geometry.map { $0.y * range.horizontal }
        // The model gives a vertical error to a 3D fix only; the receiver's own, always.
        let isThreeD = fix.mode == .threeD
        vertical = accuracy?.vertical ?? errors.altitude ?? garmin?.vertical.map { $0 * Self.garminScale }
            ?? (isThreeD ? vdop.map { $0 * range.vertical } : nil)
        horizontal = accuracy?.horizontal ?? errors.horizontal ?? hdop.map { $0 * range.position }
        spherical = garmin?.spherical.map { $0 * Self.garminScale } ?? pdop.map { $0 * range.position }

        speed = accuracy?.speed
        guard let previous, previous.mode >= .twoD, let now = fix.time, let before = previous.time else { return }
        let seconds = now.secondsSince1970 - before.secondsSince1970
        guard seconds > 0 else { return }
        let axisError = Self.larger(longitude, latitude)
        if speed == nil, let earlier = Self.larger(previous.estimates.longitude, previous.estimates.latitude), let axisError {
            speed = (earlier + axisError) / seconds
        }
        if let axisError, let latitude = fix.latitude, let longitude = fix.longitude,
           let beforeLatitude = previous.latitude, let beforeLongitude = previous.longitude {
            // The course from the previous position is off by at most the angle the current
            // position's error subtends from there; half of it is expected.
            // Most fixes move less than their error: a cheap distance rules them out, and only
            // the rest pay for the ellipsoid's, which gpsd's figures are computed from.
            if nearbyDistance(beforeLatitude, beforeLongitude, latitude, longitude) > axisError * 0.99,
               case let travelled = ellipsoidDistance(beforeLatitude, beforeLongitude, latitude, longitude),
               travelled > axisError {
                let hypotenuse = (travelled * travelled + axisError * axisError).squareRoot()
                track = 2 * asin(axisError / hypotenuse) * 180 / .pi
            }
        }
        // A climb, and so its error, is a 3D fix's only.
        if isThreeD, let vertical, let earlier = previous.estimates.vertical {
            climb = (earlier + vertical) / seconds
        }
    }

    /// From a 50% circular error to gpsd's 95% (gpsd's `CEP95_SIGMA / CEP50_SIGMA`).
    private static let garminScale = 2.45 / 1.18

    private static func larger(_ a: Double?, _ b: Double?) -> Double? {
        switch (a, b) {
        case let (a?, b?): max(a, b)
        case let (a?, nil): a
        case let (nil, b?): b
        case (nil, nil): nil
        }
    }
}
