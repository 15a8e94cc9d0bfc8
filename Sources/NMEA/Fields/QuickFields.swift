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
    /// ``integer(_:)`` with an inline path for one to three digits.
    @inline(__always)
    func quickInteger(_ index: Int) throws(MalformedSentence) -> Int? {
        let field = self[index]
        if field.isEmpty { return nil }
        let value = field.shortWholeNumber
        if value >= 0 { return value }
        return try integer(index)
    }

    /// ``decimal(_:in:)`` with an inline path for one to three digits.
    @inline(__always)
    func quickDecimal(_ index: Int, in range: ClosedRange<Double>) throws(MalformedSentence) -> Double? {
        let field = self[index]
        if field.isEmpty { return nil }
        let whole = field.shortWholeNumber
        if whole >= 0 {
            let value = Double(whole)
            if range.contains(value) { return value }
        }
        return try decimal(index, in: range)
    }
}
