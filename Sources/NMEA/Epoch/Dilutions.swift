import Platform

/// Dilutions of precision computed from the directions of the satellites used in a fix, as
/// gpsd computes them for its `SKY` (`xdop`, `ydop`, `tdop`, `gdop`, and `hdop`, `vdop`,
/// `pdop` when the receiver sent none): each is how much the geometry multiplies a range error
/// into an error of position or time. They are unitless.
///
/// From the line-of-sight matrix G, one row per satellite (east, north and up components of
/// the unit vector towards it, and 1 for the clock), the covariance (GᵀG)⁻¹ gives the squared
/// dilutions on its diagonal.
public struct Dilutions: Sendable, Hashable {
    /// East-west (longitude) dilution: gpsd's `xdop`.
    public var x: Double
    /// North-south (latitude) dilution: gpsd's `ydop`.
    public var y: Double
    /// Vertical dilution: `vdop`.
    public var vertical: Double
    /// Time (receiver clock) dilution: `tdop`.
    public var time: Double

    /// Creates dilutions from their four independent parts.
    public init(x: Double, y: Double, vertical: Double, time: Double) {
        self.x = x
        self.y = y
        self.vertical = vertical
        self.time = time
    }

    /// Horizontal dilution, `hdop`: √(x² + y²).
    public var horizontal: Double { (x * x + y * y).squareRoot() }
    /// Position (3D) dilution, `pdop`: √(x² + y² + v²).
    public var position: Double { (x * x + y * y + vertical * vertical).squareRoot() }
    /// Geometric dilution, `gdop`: √(x² + y² + v² + t²).
    public var geometric: Double { (x * x + y * y + vertical * vertical + time * time).squareRoot() }

    /// The dilutions of satellites seen in `directions` (azimuth from true north and elevation
    /// above the horizon, degrees); `nil` with fewer than four, or when they lie so that no
    /// position follows from them (all in one plane through the receiver, say).
    public init?(directions: some Sequence<(azimuth: Double, elevation: Double)>) {
        var normal = NormalMatrix()
        for (azimuth, elevation) in directions { normal.add(azimuth: azimuth, elevation: elevation) }
        guard let dilutions = normal.dilutions() else { return nil }
        self = dilutions
    }
}

/// GᵀG of a line-of-sight matrix G, accumulated one satellite at a time, in place (a sky's
/// dilutions cost no allocation).
struct NormalMatrix {
    /// Row major, 4×4, symmetric.
    private var entries = InlineArray<16, Double>(repeating: 0)
    private(set) var count = 0

    /// Adds the satellite seen at `azimuth` and `elevation` (degrees).
    mutating func add(azimuth: Double, elevation: Double) {
        Self.sines.withUnsafeBufferPointer { add(azimuth: azimuth, elevation: elevation, sines: $0) }
    }

    /// Adds a satellite, with the table of ``sines`` at hand.
    mutating func add(azimuth: Double, elevation: Double, sines: UnsafeBufferPointer<Double>) {
        let cosElevation = Self.cosine(elevation, sines)
        let east = Self.sine(azimuth, sines) * cosElevation
        let north = Self.cosine(azimuth, sines) * cosElevation
        let up = Self.sine(elevation, sines)
        entries[0] += east * east
        entries[1] += east * north
        entries[2] += east * up
        entries[3] += east
        entries[5] += north * north
        entries[6] += north * up
        entries[7] += north
        entries[10] += up * up
        entries[11] += up
        entries[15] += 1
        count += 1
    }

    // GSV gives whole degrees (NMEA's format has no decimals there): their sines come from a
    // table, which saves four calls into libm per satellite (the decode benchmark guards it).
    // Any other angle is computed.
    static let sines: [Double] = (0...450).map { sin(Double($0) * .pi / 180) }

    private static func sine(_ degrees: Double, _ sines: UnsafeBufferPointer<Double>) -> Double {
        let whole = degrees.rounded(.towardZero)
        if whole == degrees, degrees >= -90, degrees <= 360 {
            let index = Int(whole)
            return index >= 0 ? sines[index] : -sines[-index]
        }
        return sin(degrees * .pi / 180)
    }

    private static func cosine(_ degrees: Double, _ sines: UnsafeBufferPointer<Double>) -> Double {
        let whole = degrees.rounded(.towardZero)
        if whole == degrees, degrees >= -90, degrees <= 360 {
            // cos x = sin(x + 90°), and cosine is even.
            return sines[Int(whole.magnitude) + 90]
        }
        return cos(degrees * .pi / 180)
    }

    /// The dilutions: the square roots of the diagonal of the inverse, by Gauss-Jordan
    /// elimination with partial pivoting; `nil` with fewer than four satellites or a singular
    /// matrix.
    func dilutions() -> Dilutions? {
        guard count >= 4 else { return nil }
        var a = entries
        // Only the upper triangle was summed: the matrix is symmetric.
        for i in 1..<4 {
            for j in 0..<i { a[i * 4 + j] = a[j * 4 + i] }
        }
        var inverse = InlineArray<16, Double>(repeating: 0)
        for i in 0..<4 { inverse[i &* 5] = 1 }
        for column in 0..<4 {
            var pivot = column
            for row in column + 1..<4 where abs(a[row * 4 + column]) > abs(a[pivot * 4 + column]) { pivot = row }
            // GᵀG of unit vectors has entries of the order of the satellite count: a pivot this
            // small is a degenerate geometry, not a fine one.
            guard abs(a[pivot * 4 + column]) > 1e-9 else { return nil }
            if pivot != column {
                for k in 0..<4 {
                    a.swapAt(pivot * 4 + k, column * 4 + k)
                    inverse.swapAt(pivot * 4 + k, column * 4 + k)
                }
            }
            let scale = 1 / a[column * 4 + column]
            for k in 0..<4 {
                a[column * 4 + k] *= scale
                inverse[column * 4 + k] *= scale
            }
            for row in 0..<4 where row != column {
                let factor = a[row * 4 + column]
                guard factor != 0 else { continue }
                for k in 0..<4 {
                    a[row * 4 + k] -= factor * a[column * 4 + k]
                    inverse[row * 4 + k] -= factor * inverse[column * 4 + k]
                }
            }
        }
        let x = inverse[0], y = inverse[5], v = inverse[10], t = inverse[15]
        guard x > 0, y > 0, v > 0, t > 0, (x + y + v + t).isFinite else { return nil }
        return Dilutions(x: x.squareRoot(), y: y.squareRoot(), vertical: v.squareRoot(), time: t.squareRoot())
    }
}

extension Sky {
    /// The dilutions of the satellites this sky lists as used, from their azimuth and elevation
    /// (each satellite once, however many signals it was heard on); `nil` when fewer than four
    /// used satellites have both, or their geometry gives no position. A satellite with an
    /// azimuth outside 0 to 360 degrees or an elevation outside ±90 is left out, as gpsd does.
    public var geometry: Dilutions? {
        var seen = SatelliteSet()
        var normal = NormalMatrix()
        NormalMatrix.sines.withUnsafeBufferPointer { sines in
            for index in views.indices {
                views[index].satellites.withUnsafeBufferPointer { satellites in
                    for satellite in satellites where satellite.used {
                        guard let id = satellite.id, let azimuth = satellite.azimuth, (0..<360).contains(azimuth),
                              let elevation = satellite.elevation, (-90...90).contains(elevation),
                              !seen.contains(id) else { continue }
                        seen.insert(id)
                        normal.add(azimuth: azimuth, elevation: elevation, sines: sines)
                    }
                }
            }
        }
        return normal.dilutions()
    }
}
