// Inline fast paths for the short numbers that fill most fields (satellite numbers, elevations,
// azimuths, signal strengths). `parseDecimal` starts with the same test; the `quick` readers use
// it before any of the field-reading layers. Anything else goes to the general readers, so the
// results and the errors are exactly theirs.

extension NMEAField {
    /// The value of one to three plain decimal digits, or -1 for anything else.
    @usableFromInline @inline(__always)
    var shortWholeNumber: Int {
        switch count {
        case 1:
            let d0 = base[0] &- UInt8(ascii: "0")
            return d0 < 10 ? Int(d0) : -1
        case 2:
            let d0 = base[0] &- UInt8(ascii: "0"), d1 = base[1] &- UInt8(ascii: "0")
            return d0 < 10 && d1 < 10 ? Int(d0) &* 10 &+ Int(d1) : -1
        case 3:
            let d0 = base[0] &- UInt8(ascii: "0"), d1 = base[1] &- UInt8(ascii: "0"), d2 = base[2] &- UInt8(ascii: "0")
            return d0 < 10 && d1 < 10 && d2 < 10 ? Int(d0) &* 100 &+ Int(d1) &* 10 &+ Int(d2) : -1
        default:
            return -1
        }
    }
}

extension RawSentence {
    /// Field `index` as one to three plain decimal digits; ``emptyField`` when the field is
    /// empty or past the end, -1 for anything else (which the general readers then judge).
    ///
    /// No branch depends on the field's length or bytes: field lengths vary from one sentence
    /// to the next, and a mispredicted branch per field costs more than the arithmetic.
    @inline(__always)
    func shortWholeNumber(_ index: Int) -> Int {
        guard index < fieldCount else { return Self.emptyField }
        // Four bytes from the field's start stay inside the sentence and the byte after it
        // (its line end, or the framer's spare room) when a checksum follows the data.
        guard Int(starts[index]) &+ 3 <= length else {
            let field = self[index]
            return field.isEmpty ? Self.emptyField : field.shortWholeNumber
        }
        return shortWholeNumber(unchecked: index)
    }

    /// ``shortWholeNumber(_:)`` without its checks, for a caller that has made them once for
    /// many fields: the field must exist and start at least three bytes before ``length``.
    @inline(__always)
    func shortWholeNumber(unchecked index: Int) -> Int {
        let start = Int(starts[index])
        let count = Int(starts[index &+ 1]) &- 1 &- start
        let word = UInt64(UInt32(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt32.self)))
        return Self.shortWholeNumber(word, count: count)
    }

    /// ``shortWholeNumber(_:)`` on the first `count` bytes of `word` (first byte lowest), in
    /// arithmetic only: a `?:` here would be compiled back into the branches this avoids.
    @inline(__always)
    static func shortWholeNumber(_ word: UInt64, count: Int) -> Int {
        // '0'...'9' become 0...9, moved to the top of four lanes with zeros (leading zeros)
        // below them; the bytes past the field move out of the low 32 bits.
        let digits = (word ^ 0x3030_3030) &<< UInt64(truncatingIfNeeded: 32 &- 8 &* count) & 0xFFFF_FFFF
        // Any lane that is not a digit (the four lanes above are zeros, which are digits).
        let nonDigits = SWAR.nonDigits(digits)
        let bad = nonDigits | UInt64(truncatingIfNeeded: count) >> 2
        // Pairs of digits, then the pairs: 1000 a + 100 b + 10 c + d in two multiplications.
        let pairs = (digits &* 10 &+ digits >> 8) & 0x00FF_00FF
        let value = Int(truncatingIfNeeded: (pairs &* 100 &+ pairs >> 16) & 0xFFFF)
        let empty = Int(truncatingIfNeeded: UInt64(bitPattern: Int64(count &- 1)) >> 63)
        // Empty: 0 - 2; malformed: all bits set, -1.
        return (value &- 2 &* empty) | (0 &- Int(truncatingIfNeeded: (bad | (0 &- bad)) >> 63))
    }

    /// What ``shortWholeNumber(_:)`` returns for an empty field.
    static let emptyField = -2
    /// What ``shortWholeNumber(_:)`` returns for a field that is not one to three digits.
    ///
    /// The one reader whose "declined" is not `nil`: GSV and GSA read a dozen of these fields
    /// a sentence and test them all at once, which an optional per field would not allow.
    static let notAShortNumber = -1

    /// Field `index` as an unsigned whole number; `nil` when empty. One to three digits are
    /// read inline, anything else by the general reader.
    @inline(__always)
    func integer(_ index: Int) throws(MalformedField) -> Int? {
        let field = self[index]
        if field.isEmpty { return nil }
        let value = field.shortWholeNumber
        if value >= 0 { return value }
        return try generalInteger(index)
    }
}
