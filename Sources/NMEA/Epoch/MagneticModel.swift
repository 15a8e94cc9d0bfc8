import Platform

/// The World Magnetic Model 2025 (NOAA and the British Geological Survey, public domain):
/// the magnetic declination anywhere on Earth from 2025.0 to 2030.0, the figure a receiver
/// that sends RMC's variation computes. gpsd fills `magvar` from a table of the 2015 model
/// where the receiver sends none; this evaluates the current model at the fix itself.
///
/// The model is a spherical-harmonic expansion of degree and order 12: Gauss coefficients
/// `g` and `h` at the model's epoch, in nanotesla, and their yearly change.
struct MagneticModel: Sendable {
    /// The decimal year the coefficients are for.
    let epoch: Double
    /// The years the model is valid for: from its epoch to five years on.
    var span: Range<Double> { epoch..<(epoch + 5) }

    private static let degree = 12
    /// The model's reference radius, kilometres.
    private static let referenceRadius = 6371.2
    /// WGS-84: semi-major axis (km) and flattening.
    private static let semiMajorAxis = 6378.137
    private static let flattening = 1 / 298.257223563

    /// Schmidt semi-normalised coefficients, indexed `n * (n + 1) / 2 + m`, folded with the
    /// factors that turn them into coefficients of the unnormalised recursion below.
    private let g: [Double], h: [Double], gRate: [Double], hRate: [Double]

    /// The 2025 model.
    static let wmm2025 = MagneticModel(epoch: 2025.0, coefficients: wmm2025Coefficients)

    init(epoch: Double, coefficients: [(n: Int, m: Int, g: Double, h: Double, gRate: Double, hRate: Double)]) {
        self.epoch = epoch
        let count = (Self.degree + 1) * (Self.degree + 2) / 2
        var g = [Double](repeating: 0, count: count), h = g, gRate = g, hRate = g
        for row in coefficients {
            let index = row.n * (row.n + 1) / 2 + row.m
            let factor = Self.schmidtFactor(row.n, row.m)
            g[index] = row.g * factor
            h[index] = row.h * factor
            gRate[index] = row.gRate * factor
            hRate[index] = row.hRate * factor
        }
        (self.g, self.h, self.gRate, self.hRate) = (g, h, gRate, hRate)
    }

    /// The factor from a Schmidt semi-normalised associated Legendre function to the one the
    /// recursion in ``declination(latitude:longitude:altitude:year:)`` computes.
    private static func schmidtFactor(_ n: Int, _ m: Int) -> Double {
        var factor = 1.0
        // S(n, 0) = S(n-1, 0) (2n - 1) / n
        if n > 0 { for k in 1...n { factor *= Double(2 * k - 1) / Double(k) } }
        // S(n, m) = S(n, m-1) sqrt((n - m + 1)(2 if m is 1 else 1) / (n + m))
        if m > 0 {
            for k in 1...m { factor *= (Double((n - k + 1) * (k == 1 ? 2 : 1)) / Double(n + k)).squareRoot() }
        }
        return factor
    }

    /// The magnetic declination, degrees east of true north (west negative), at `latitude`
    /// and `longitude` (degrees, WGS-84), `altitude` metres above the ellipsoid, in the decimal
    /// `year`; `nil` outside the model's years, or within 0.01 degree of a pole, where the
    /// declination is not defined.
    func declination(latitude: Double, longitude: Double, altitude: Double = 0, year: Double) -> Double? {
        guard span.contains(year), abs(latitude) < 89.99, latitude.isFinite, longitude.isFinite, altitude.isFinite
        else { return nil }
        let degree = Self.degree
        let t = year - epoch
        // Geodetic to geocentric spherical coordinates.
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let eccentricitySquared = Self.flattening * (2 - Self.flattening)
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let primeVertical = Self.semiMajorAxis / (1 - eccentricitySquared * sinPhi * sinPhi).squareRoot()
        let heightKm = altitude / 1000
        let p = (primeVertical + heightKm) * cosPhi
        let z = (primeVertical * (1 - eccentricitySquared) + heightKm) * sinPhi
        let radius = (p * p + z * z).squareRoot()
        let geocentricLatitude = asin(z / radius)
        // Colatitude's cosine and sine.
        let x = sin(geocentricLatitude), s = cos(geocentricLatitude)

        // Associated Legendre functions P(n, m)(cos colatitude) and their derivatives with
        // respect to colatitude, by the Gauss-normalised recursion (the Schmidt factors are in
        // the coefficients).
        let count = (degree + 1) * (degree + 2) / 2
        var legendre = [Double](repeating: 0, count: count), derivative = legendre
        legendre[0] = 1
        for n in 1...degree {
            for m in 0...n {
                let index = n * (n + 1) / 2 + m
                if m == n {
                    let previous = (n - 1) * n / 2 + (m - 1)
                    legendre[index] = s * legendre[previous]
                    derivative[index] = s * derivative[previous] + x * legendre[previous]
                } else if n == 1 {
                    legendre[index] = x * legendre[0]
                    derivative[index] = x * derivative[0] - s * legendre[0]
                } else {
                    let one = (n - 1) * n / 2 + m, two = (n - 2) * (n - 1) / 2 + m
                    let k = m <= n - 2 ? Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3)) : 0
                    legendre[index] = x * legendre[one] - (m <= n - 2 ? k * legendre[two] : 0)
                    derivative[index] = x * derivative[one] - s * legendre[one] - (m <= n - 2 ? k * derivative[two] : 0)
                }
            }
        }

        // The field's north, east and down components in geocentric coordinates.
        var north = 0.0, east = 0.0, down = 0.0
        var ratio = pow(Self.referenceRadius / radius, 2)
        let cosines = (0...degree).map { cos(Double($0) * lambda) }, sines = (0...degree).map { sin(Double($0) * lambda) }
        for n in 1...degree {
            ratio *= Self.referenceRadius / radius
            for m in 0...n {
                let index = n * (n + 1) / 2 + m
                let gnm = g[index] + t * gRate[index], hnm = h[index] + t * hRate[index]
                let cosine = cosines[m], sine = sines[m]
                let term = gnm * cosine + hnm * sine
                north += ratio * term * derivative[index]
                east += ratio * Double(m) * (gnm * sine - hnm * cosine) * legendre[index]
                down -= Double(n + 1) * ratio * term * legendre[index]
            }
        }
        east /= s
        // Back to the ellipsoid's north.
        let tilt = geocentricLatitude - phi
        let geodeticNorth = north * cos(tilt) - down * sin(tilt)
        return atan2(east, geodeticNorth) * 180 / .pi
    }
}

/// The model's declination for successive fixes, worked out again only when the position
/// moves by more than about a kilometre (0.01 degree of latitude) or the date by four days:
/// the declination changes by hundredths of a degree over either, and the model is 800
/// multiplications. A fix that matches the last one costs a date's day number, no more.
struct MagneticVariationCache: Sendable {
    private var last: (latitude: Double, longitude: Double, day: Int, declination: Double?)?

    /// The declination at `latitude`, `longitude` (degrees) at `time`; `nil` outside the
    /// model's years or at a pole.
    mutating func declination(latitude: Double, longitude: Double, at time: UTCTime) -> Double? {
        let day = time.date.daysSince1970
        if let last, abs(last.latitude - latitude) < 0.01, abs(last.longitude - longitude) * cos(latitude * .pi / 180) < 0.01,
           abs(last.day - day) < 4 {
            return last.declination
        }
        let declination = MagneticModel.wmm2025.declination(latitude: latitude, longitude: longitude, year: time.decimalYear)
        last = (latitude, longitude, day, declination)
        return declination
    }
}

extension UTCTime {
    /// The time as a decimal year (2026.0 is its first instant).
    var decimalYear: Double {
        let year = date.year
        let start = Double(CalendarDate(year: year, month: 1, day: 1)?.daysSince1970 ?? date.daysSince1970)
        let end = Double(CalendarDate(year: year + 1, month: 1, day: 1)?.daysSince1970 ?? date.daysSince1970 + 365)
        let day = Double(date.daysSince1970) + Double(timeOfDay.nanosecondsSinceMidnight) / 86_400e9
        return Double(year) + (day - start) / (end - start)
    }
}

extension MagneticModel {
    /// WMM2025.COF: n, m, g and h (nT), and their change (nT a year).
    static let wmm2025Coefficients: [(n: Int, m: Int, g: Double, h: Double, gRate: Double, hRate: Double)] = [
        (1, 0, -29351.8, 0.0, 12.0, 0.0),
        (1, 1, -1410.8, 4545.4, 9.7, -21.5),
        (2, 0, -2556.6, 0.0, -11.6, 0.0),
        (2, 1, 2951.1, -3133.6, -5.2, -27.7),
        (2, 2, 1649.3, -815.1, -8.0, -12.1),
        (3, 0, 1361.0, 0.0, -1.3, 0.0),
        (3, 1, -2404.1, -56.6, -4.2, 4.0),
        (3, 2, 1243.8, 237.5, 0.4, -0.3),
        (3, 3, 453.6, -549.5, -15.6, -4.1),
        (4, 0, 895.0, 0.0, -1.6, 0.0),
        (4, 1, 799.5, 278.6, -2.4, -1.1),
        (4, 2, 55.7, -133.9, -6.0, 4.1),
        (4, 3, -281.1, 212.0, 5.6, 1.6),
        (4, 4, 12.1, -375.6, -7.0, -4.4),
        (5, 0, -233.2, 0.0, 0.6, 0.0),
        (5, 1, 368.9, 45.4, 1.4, -0.5),
        (5, 2, 187.2, 220.2, 0.0, 2.2),
        (5, 3, -138.7, -122.9, 0.6, 0.4),
        (5, 4, -142.0, 43.0, 2.2, 1.7),
        (5, 5, 20.9, 106.1, 0.9, 1.9),
        (6, 0, 64.4, 0.0, -0.2, 0.0),
        (6, 1, 63.8, -18.4, -0.4, 0.3),
        (6, 2, 76.9, 16.8, 0.9, -1.6),
        (6, 3, -115.7, 48.8, 1.2, -0.4),
        (6, 4, -40.9, -59.8, -0.9, 0.9),
        (6, 5, 14.9, 10.9, 0.3, 0.7),
        (6, 6, -60.7, 72.7, 0.9, 0.9),
        (7, 0, 79.5, 0.0, -0.0, 0.0),
        (7, 1, -77.0, -48.9, -0.1, 0.6),
        (7, 2, -8.8, -14.4, -0.1, 0.5),
        (7, 3, 59.3, -1.0, 0.5, -0.8),
        (7, 4, 15.8, 23.4, -0.1, 0.0),
        (7, 5, 2.5, -7.4, -0.8, -1.0),
        (7, 6, -11.1, -25.1, -0.8, 0.6),
        (7, 7, 14.2, -2.3, 0.8, -0.2),
        (8, 0, 23.2, 0.0, -0.1, 0.0),
        (8, 1, 10.8, 7.1, 0.2, -0.2),
        (8, 2, -17.5, -12.6, 0.0, 0.5),
        (8, 3, 2.0, 11.4, 0.5, -0.4),
        (8, 4, -21.7, -9.7, -0.1, 0.4),
        (8, 5, 16.9, 12.7, 0.3, -0.5),
        (8, 6, 15.0, 0.7, 0.2, -0.6),
        (8, 7, -16.8, -5.2, -0.0, 0.3),
        (8, 8, 0.9, 3.9, 0.2, 0.2),
        (9, 0, 4.6, 0.0, -0.0, 0.0),
        (9, 1, 7.8, -24.8, -0.1, -0.3),
        (9, 2, 3.0, 12.2, 0.1, 0.3),
        (9, 3, -0.2, 8.3, 0.3, -0.3),
        (9, 4, -2.5, -3.3, -0.3, 0.3),
        (9, 5, -13.1, -5.2, 0.0, 0.2),
        (9, 6, 2.4, 7.2, 0.3, -0.1),
        (9, 7, 8.6, -0.6, -0.1, -0.2),
        (9, 8, -8.7, 0.8, 0.1, 0.4),
        (9, 9, -12.9, 10.0, -0.1, 0.1),
        (10, 0, -1.3, 0.0, 0.1, 0.0),
        (10, 1, -6.4, 3.3, 0.0, 0.0),
        (10, 2, 0.2, 0.0, 0.1, -0.0),
        (10, 3, 2.0, 2.4, 0.1, -0.2),
        (10, 4, -1.0, 5.3, -0.0, 0.1),
        (10, 5, -0.6, -9.1, -0.3, -0.1),
        (10, 6, -0.9, 0.4, 0.0, 0.1),
        (10, 7, 1.5, -4.2, -0.1, 0.0),
        (10, 8, 0.9, -3.8, -0.1, -0.1),
        (10, 9, -2.7, 0.9, -0.0, 0.2),
        (10, 10, -3.9, -9.1, -0.0, -0.0),
        (11, 0, 2.9, 0.0, 0.0, 0.0),
        (11, 1, -1.5, 0.0, -0.0, -0.0),
        (11, 2, -2.5, 2.9, 0.0, 0.1),
        (11, 3, 2.4, -0.6, 0.0, -0.0),
        (11, 4, -0.6, 0.2, 0.0, 0.1),
        (11, 5, -0.1, 0.5, -0.1, -0.0),
        (11, 6, -0.6, -0.3, 0.0, -0.0),
        (11, 7, -0.1, -1.2, -0.0, 0.1),
        (11, 8, 1.1, -1.7, -0.1, -0.0),
        (11, 9, -1.0, -2.9, -0.1, 0.0),
        (11, 10, -0.2, -1.8, -0.1, 0.0),
        (11, 11, 2.6, -2.3, -0.1, 0.0),
        (12, 0, -2.0, 0.0, 0.0, 0.0),
        (12, 1, -0.2, -1.3, 0.0, -0.0),
        (12, 2, 0.3, 0.7, -0.0, 0.0),
        (12, 3, 1.2, 1.0, -0.0, -0.1),
        (12, 4, -1.3, -1.4, -0.0, 0.1),
        (12, 5, 0.6, -0.0, -0.0, -0.0),
        (12, 6, 0.6, 0.6, 0.1, -0.0),
        (12, 7, 0.5, -0.1, -0.0, -0.0),
        (12, 8, -0.1, 0.8, 0.0, 0.0),
        (12, 9, -0.4, 0.1, 0.0, -0.0),
        (12, 10, -0.2, -1.0, -0.1, -0.0),
        (12, 11, -1.3, 0.1, -0.0, 0.0),
        (12, 12, -0.7, 0.2, -0.1, -0.1),
    ]
}
