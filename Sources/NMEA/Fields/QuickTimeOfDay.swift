// The time field of nearly every sentence (`hhmmss.ss`) read from one word, with no loop over
// its digits: the general reader walks them one by one.

extension RawSentence {
    /// ``NMEAField/timeOfDay()`` for the common field: `hhmmss`, or `hhmmss.` followed by one to
    /// eight digits, read a word at a time. `nil` for anything else (an empty field and every
    /// error included), which the general reader then decodes or rejects: the value, when there
    /// is one, is the general reader's.
    @usableFromInline @inline(__always)
    func quickTimeOfDay(_ index: Int) -> TimeOfDay? {
        guard index < fieldCount else { return nil }
        let start = Int(starts[index])
        let end = Int(starts[index &+ 1]) &- 1
        let count = end &- start
        // Eight bytes from the field's start lie within the sentence.
        guard count == 6 || (count >= 8 && count <= 15), start &+ 8 <= length else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        // Six digits: '0'...'9' become 0...9 and anything else 10 or more, or its high bit set.
        let digits = (word ^ 0x3030_3030_3030_3030) & 0xFFFF_FFFF_FFFF
        guard SWAR.nonDigits(digits) == 0 else { return nil }
        // Each byte and the next as a two-digit number: hh, mm and ss land in bytes 0, 2 and 4.
        let pairs = digits &* 10 &+ digits >> 8
        var nanosecond = 0
        if count > 6 {
            let fractionCount = count &- 7
            // Digits only after the point: a point among them leaves fraction digits, and a
            // point as the last byte is looked for.
            guard base[start &+ 6] == UInt8(ascii: "."), base[end &- 1] != UInt8(ascii: "."),
                  let (fraction, fractionDigits) = Self.eightByteMantissa(endingAt: base + end, count: fractionCount),
                  fractionDigits == 0
            else { return nil }
            nanosecond = Int(fraction) &* Int(powerOfTen(9 &- fractionCount))
        }
        return TimeOfDay(hour: Int(pairs & 0xFF), minute: Int(pairs >> 16 & 0xFF), second: Int(pairs >> 32 & 0xFF),
                         nanosecond: nanosecond)
    }
}
