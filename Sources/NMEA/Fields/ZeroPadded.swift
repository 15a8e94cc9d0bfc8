/// A non-negative `value` in base `radix` (lowercase digits unless `uppercase`), with leading
/// zeros to at least `width` digits.
package func zeroPadded(_ value: some BinaryInteger, width: Int, radix: Int = 10, uppercase: Bool = false) -> String {
    let digits = String(value, radix: radix, uppercase: uppercase)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
