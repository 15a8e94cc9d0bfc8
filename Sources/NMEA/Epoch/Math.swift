#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func arcsine(_ x: Double) -> Double { asin(x) }
@inline(__always) func sinSquaredHalf(_ x: Double) -> Double {
    let s = sin(x / 2)
    return s * s
}

/// Metres between two positions on a sphere of the WGS-84 mean radius (haversine).
func greatCircleDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let radians = Double.pi / 180
    let dLatitude = (latitude2 - latitude1) * radians
    let dLongitude = (longitude2 - longitude1) * radians
    let a = sinSquaredHalf(dLatitude) + cosine(latitude1 * radians) * cosine(latitude2 * radians) * sinSquaredHalf(dLongitude)
    return 2 * 6_371_008.8 * arcsine(min(1, a.squareRoot()))
}
