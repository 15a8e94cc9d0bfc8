/// `value` in fixed point with `decimals` digits after the point (`-12.340`), rounded half
/// away from zero; the shortest round-trip form for magnitudes beyond 9e15 / 10^decimals.
package func fixedPoint(_ value: Double, decimals: Int) -> String {
    let decimals = max(0, min(decimals, 15))
    guard value.isFinite else { return "\(value)" }
    let scaled = (value.magnitude * powerOfTen(decimals)).rounded()
    guard scaled < 9.0e15 else { return "\(value)" }
    let divisor = UInt64(powerOfTen(decimals))
    let whole = UInt64(scaled) / divisor, fraction = UInt64(scaled) % divisor
    var text = value < 0 && scaled != 0 ? "-" : ""
    text += String(whole)
    if decimals > 0 {
        let digits = String(fraction)
        text += "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
    return text
}
