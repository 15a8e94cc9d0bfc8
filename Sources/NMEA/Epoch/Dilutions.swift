#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        let radians = Double.pi / 180
        let cosElevation = cos(elevation * radians)
        var row = InlineArray<4, Double>(repeating: 1)
        row[0] = sin(azimuth * radians) * cosElevation
        row[1] = cos(azimuth * radians) * cosElevation
        row[2] = sin(elevation * radians)
        for i in 0..<4 {
            for j in 0..<4 { entries[i &* 4 &+ j] += row[i] * row[j] }
        }
        count += 1
    }

    /// The dilutions: the square roots of the diagonal of the inverse, by Gauss-Jordan
    /// elimination with partial pivoting; `nil` with fewer than four satellites or a singular
    /// matrix.
    func dilutions() -> Dilutions? {
        guard count >= 4 else { return nil }
        var a = entries
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
        for view in views {
            for satellite in view.satellites where satellite.used {
                guard let id = satellite.id, !seen.contains(id),
                      let azimuth = satellite.azimuth, (0..<360).contains(azimuth),
                      let elevation = satellite.elevation, (-90...90).contains(elevation) else { continue }
                seen.insert(id)
                normal.add(azimuth: azimuth, elevation: elevation)
            }
        }
        return normal.dilutions()
    }
}
