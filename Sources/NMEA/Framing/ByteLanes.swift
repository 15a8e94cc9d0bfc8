/// Byte tests on eight bytes at once (SIMD within a register).
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080
    static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    static let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C

    /// The XOR of the eight bytes of `word`.
    @inline(__always)
    static func fold(_ word: UInt64) -> UInt8 {
        var word = word
        word ^= word >> 32
        word ^= word >> 16
        word ^= word >> 8
        return UInt8(truncatingIfNeeded: word)
    }

    /// The high bit of each byte of `digits` (bytes with `'0'` already XORed out, so that the
    /// digits are 0...9) that is not a digit: 10 or more, or with its high bit set.
    @inline(__always)
    static func nonDigits(_ digits: UInt64) -> UInt64 {
        ((digits & lows) &+ 0x7676_7676_7676_7676 | digits) & highs
    }

    /// The high bit of each byte of `word` that is zero, exactly (no borrow between bytes).
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & lows) &+ lows) | word | lows)
    }

    /// The high bit of each zero byte of `word`, exact in the bytes below the first byte of
    /// 0x80 or more (cheaper than ``zeroBytes(_:)`` where only those bytes count).
    @inline(__always)
    static func printableZeroBytes(_ word: UInt64) -> UInt64 {
        highs & ~((word &+ lows) | word)
    }

    /// The high bit of each byte of `word` within `low...high`; every byte must be below 0x80.
    @inline(__always)
    static func inRange(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        let atLeastLow = word &+ ones &* UInt64(0x80 &- low)
        let aboveHigh = word &+ ones &* UInt64(0x7F &- high)
        return atLeastLow & ~aboveHigh & highs
    }

    /// The high bit of each byte outside printable ASCII (0x20...0x7E) or equal to `$`. Bytes
    /// above the first such byte may be flagged wrongly (a borrow); the lowest flag is exact.
    @inline(__always)
    static func sentenceEnds(_ word: UInt64) -> UInt64 {
        // Below 0x20: the subtraction wraps (bytes of 0x80 and up excluded by `~word`).
        let control = (word &- 0x2020_2020_2020_2020) & ~word
        // 0x7F and up: seven low bits all set, or the high bit.
        let high = ((word & lows) &+ ones) | word
        let notDollar = word ^ 0x2424_2424_2424_2424
        let dollar = (notDollar &- ones) & ~notDollar
        return (control | high | dollar) & highs
    }

    /// Zero when `byte` is the hexadecimal digit of `nibble` (0...15), in either case.
    @inline(__always)
    static func hexDigitMismatch(_ nibble: UInt8, _ byte: UInt8) -> UInt8 {
        // 1 for a letter, 0 for a figure, in arithmetic: the compiler turns a `?:` here into
        // a branch, mispredicted as often as not.
        let isLetter = (9 &- nibble) &>> 7
        let upper = nibble &+ 0x30 &+ isLetter &* 7
        // A figure must match exactly; a letter may differ in the case bit only.
        return (byte ^ upper) & ~(isLetter &<< 5)
    }

    /// Whether any byte is outside printable ASCII (0x20...0x7E) or is `$`.
    @inline(__always)
    static func endsSentence(_ word: UInt64) -> Bool { sentenceEnds(word) != 0 }
}

/// Byte tests on sixteen bytes at once, in vector registers.
enum SIMDScan {
    /// Per lane, 0xFF where the byte ends or interrupts a sentence (outside printable ASCII
    /// 0x20...0x7E, or `$`) and 0 elsewhere; then the same for commas. Exact in every lane.
    @inline(__always)
    static func classify(_ block: SIMD16<UInt8>) -> (stops: SIMD2<UInt64>, commas: SIMD2<UInt64>) {
        // As signed bytes, 0x80 and up are negative: below 0x20 like the control bytes.
        let signed = unsafeBitCast(block, to: SIMD16<Int8>.self)
        let stops = (signed .< SIMD16<Int8>(repeating: 0x20)) .| (signed .== SIMD16<Int8>(repeating: 0x7F))
            .| (block .== SIMD16<UInt8>(repeating: UInt8(ascii: "$")))
        let commas = block .== SIMD16<UInt8>(repeating: UInt8(ascii: ","))
        return (unsafeBitCast(stops, to: SIMD2<UInt64>.self), unsafeBitCast(commas, to: SIMD2<UInt64>.self))
    }
}

