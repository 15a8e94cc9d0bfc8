// Decimal fields of up to eight bytes (`1.8`, `545.4`, `07.4074`, `0.013`) read from one word,
// with no loop and no branch on the digits: most fields of the common sentences are this short,
// and a byte loop mispredicts at the point and at the end of every field.

extension RawSentence {
    /// Field `index` as a decimal number; `nil` when empty. Short plain numbers take
    /// ``eightByteDecimal(endingAt:count:)``; everything else, errors included, the general reader.
    @inline(__always)
    func decimal(_ index: Int) throws(MalformedField) -> Double? {
        guard index < fieldCount else { return nil }
        let start = Int(starts[index])
        let end = Int(starts[index &+ 1]) &- 1
        let count = end &- start
        if count == 0 { return nil }
        // The word ends with the field; it starts inside the sentence (after `$` and the
        // address) when the field ends eight bytes or more into it.
        if count <= 8, end >= 8, let value = Self.eightByteDecimal(endingAt: base + end, count: count) {
            return value
        }
        return try generalDecimal(index)
    }

    /// `[digits][.digits]` in the `count` (1...8) bytes that end at `end`, at least one digit;
    /// `nil` for anything else (a sign, a second point, another byte), which the general reader
    /// then judges. The eight bytes before `end` must be readable.
    @inline(__always)
    static func eightByteDecimal(endingAt end: UnsafePointer<UInt8>, count: Int) -> Double? {
        guard let (mantissa, fractionDigits) = eightByteMantissa(endingAt: end, count: count) else { return nil }
        let number = Double(mantissa)
        return number / smallPowerOfTen(fractionDigits)
    }

    /// 10 to the power `exponent` (0...7), exactly, chosen by arithmetic: a switch here becomes
    /// a jump on the number of fraction digits, which changes from one field to the next.
    @inline(__always)
    static func smallPowerOfTen(_ exponent: Int) -> Double {
        let e = UInt64(truncatingIfNeeded: exponent)
        // 10^(4a + 2b + c) = (10^4)^a (10^2)^b 10^c, each factor 1 or its power by a mask.
        let ten = 1 &+ 9 &* (e & 1)
        let hundred = 1 &+ 99 &* (e >> 1 & 1)
        let tenThousand = 1 &+ 9_999 &* (e >> 2 & 1)
        return Double(ten &* hundred &* tenThousand)
    }

    /// ``eightByteDecimal(endingAt:count:)`` before the division: the digits as a whole number,
    /// and how many of them follow the point.
    @inline(__always)
    static func eightByteMantissa(endingAt end: UnsafePointer<UInt8>, count: Int) -> (mantissa: UInt64, fractionDigits: Int)? {
        let word = UInt64(littleEndian: UnsafeRawPointer(end - 8).loadUnaligned(as: UInt64.self))
        // The field's bytes are the top `count` bytes; the last byte of the field is the top byte.
        let lanes: UInt64 = .max &<< UInt64(8 &* (8 &- count))
        let points = SWAR.zeroBytes(word ^ 0x2E2E_2E2E_2E2E_2E2E) & lanes
        let digits = (word ^ 0x3030_3030_3030_3030) & lanes
        let nonDigits = SWAR.nonDigits(digits) & lanes
        // One point at most, every other byte a digit, and a digit somewhere.
        // (With one point at most, the bytes that are not digits number 1 or 0: `points != 0`
        // in arithmetic, which costs less than a population count on a baseline x86-64.)
        guard points & (points &- 1) == 0, nonDigits & ~points == 0,
              count > Int(truncatingIfNeeded: (points | (0 &- points)) >> 63) else { return nil }
        // Take the point out: the integer digits move up one byte into its place.
        let pointByte = points == 0 ? 8 : points.trailingZeroBitCount &>> 3
        let fractionDigits = 7 &- pointByte &+ (points == 0 ? 1 : 0)
        let below: UInt64 = pointByte >= 8 ? .max : (1 &<< UInt64(8 &* pointByte)) &- 1
        let packed = pointByte >= 8 ? digits : (digits & ~below & ~(0xFF &<< UInt64(8 &* pointByte))) | (digits & below) &<< 8
        // Eight digits, the first in the lowest byte, to their value (leading bytes are zeros).
        var value = packed &* 10 &+ (packed >> 8)
        value = ((value & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064
            &+ ((value >> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001) >> 32
        return (value, fractionDigits)
    }
}
