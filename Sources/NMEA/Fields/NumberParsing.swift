// Field readers. Each returns nil for an empty field and throws for a malformed one: a wrong value
// is worse than no value.

/// 10^exponent for 0...22, the powers a `Double` holds exactly; a switch rather than a global
/// table, so the hot paths pay no lazy-initialisation check per use.
@inlinable @inline(__always)
package func powerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
}

/// The largest exponent ``powerOfTen(_:)`` gives exactly.
@usableFromInline let maximumExactPowerOfTen = 22

extension NMEAField {
    /// A decimal number such as `-12.5`, `0.000123` or `17`; `nil` when empty.
    ///
    /// Up to 19 significant digits are kept; further digits are read, checked, and dropped, so a
    /// long fraction neither overflows nor loses the precision a `Double` can hold.
    @inlinable
    public func decimal() throws(FieldError) -> Double? {
        guard count > 0 else { return nil }
        guard let value = parseDecimal(self) else { throw FieldError(expected: "a decimal number") }
        return value
    }

    /// An unsigned whole number in decimal; `nil` when empty.
    @inlinable
    public func integer() throws(FieldError) -> Int? {
        guard count > 0 else { return nil }
        guard count <= 18 else { throw FieldError(expected: "a whole number") }
        var value = 0
        for index in 0..<count {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { throw FieldError(expected: "a whole number") }
            value = value * 10 + Int(digit)
        }
        return value
    }

    /// A whole number written in hexadecimal (NMEA 4.11 signal IDs such as `B`); `nil` when empty.
    @inlinable
    public func hexInteger() throws(FieldError) -> Int? {
        guard count > 0 else { return nil }
        guard count <= 8 else { throw FieldError(expected: "a hexadecimal number") }
        var value = 0
        for index in 0..<count {
            guard let digit = hexDigitValue(base[index]) else { throw FieldError(expected: "a hexadecimal number") }
            value = value << 4 | Int(digit)
        }
        return value
    }

    /// A one-character field; `nil` when empty.
    @inlinable
    public func character() throws(FieldError) -> UInt8? {
        guard count > 0 else { return nil }
        guard count == 1 else { throw FieldError(expected: "a single character") }
        return base[0]
    }
}

@inlinable @inline(__always)
func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    default: nil
    }
}

/// Reads `[+-]digits[.digits]` (at least one digit); nil when anything else is there.
@inlinable
func parseDecimal(_ field: NMEAField) -> Double? {
    // Fastest path: a short whole number (GSV elevations, azimuths, signal strengths).
    let count = field.count
    let whole = field.shortWholeNumber
    if whole >= 0 { return Double(whole) }
    // Fast path: up to 18 digits fit a UInt64 exactly; one pass, no bookkeeping.
    var index = 0
    var negative = false
    if count > 0, field[0] == UInt8(ascii: "-") || field[0] == UInt8(ascii: "+") {
        negative = field[0] == UInt8(ascii: "-")
        index = 1
    }
    guard count - index <= 19 else { return parseLongDecimal(field) }
    var mantissa: UInt64 = 0
    var point = -1
    let digitsStart = index
    while index < count {
        let byte = field[index]
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
        } else if byte == UInt8(ascii: "."), point < 0 {
            point = index
        } else {
            return nil
        }
        index += 1
    }
    let digits = count - digitsStart - (point < 0 ? 0 : 1)
    guard digits > 0 else { return nil }
    var value = Double(mantissa)
    if point >= 0, count - point - 1 > 0 { value /= powerOfTen(count - point - 1) }
    return negative ? -value : value
}

/// The general case of ``parseDecimal(_:)``: any number of digits, the first 19 significant
/// ones kept.
@usableFromInline
func parseLongDecimal(_ field: NMEAField) -> Double? {
    var index = 0
    var negative = false
    if field.count > 0, field[0] == UInt8(ascii: "-") || field[0] == UInt8(ascii: "+") {
        negative = field[0] == UInt8(ascii: "-")
        index = 1
    }
    var mantissa: UInt64 = 0
    var significant = 0
    var fractionDigits = 0
    var droppedIntegerDigits = 0
    var digits = 0
    var seenPoint = false
    while index < field.count {
        let byte = field[index]
        index += 1
        if byte == UInt8(ascii: ".") {
            if seenPoint { return nil }
            seenPoint = true
            continue
        }
        let digit = byte &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        digits += 1
        if significant < 19 {
            if mantissa != 0 || digit != 0 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            if seenPoint { fractionDigits += 1 }
        } else if !seenPoint {
            droppedIntegerDigits += 1
        }
    }
    guard digits > 0 else { return nil }
    var value = Double(mantissa)
    if droppedIntegerDigits > 0 {
        guard droppedIntegerDigits <= maximumExactPowerOfTen else { return nil }
        value *= powerOfTen(droppedIntegerDigits)
    }
    if fractionDigits > 0 {
        if fractionDigits <= maximumExactPowerOfTen {
            value /= powerOfTen(fractionDigits)
        } else {
            var remaining = fractionDigits
            while remaining > 0 {
                let step = min(remaining, maximumExactPowerOfTen)
                value /= powerOfTen(step)
                remaining -= step
            }
        }
    }
    return negative ? -value : value
}
