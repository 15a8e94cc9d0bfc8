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
