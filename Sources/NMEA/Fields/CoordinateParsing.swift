extension NMEAField {
    /// An NMEA angle `dddmm.mmmm` (degrees then minutes) in decimal degrees; `nil` when empty.
    ///
    /// The degrees and the minutes are read apart, so the result is as exact as a `Double`
    /// allows (better than 1e-9 degree) whatever the number of fractional digits.
    @inlinable
    public func degreesMinutes(maximumDegrees: Int) throws(FieldError) -> Double? {
        guard count > 0 else { return nil }
        var point = 0
        while point < count, base[point] != UInt8(ascii: ".") { point += 1 }
        // At least mm before the point, and at most three degree digits.
        guard point >= 2, point <= 5 else { throw FieldError(expected: "an angle dddmm.mmmm") }
        var degrees = 0
        for index in 0..<(point - 2) {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { throw FieldError(expected: "an angle dddmm.mmmm") }
            degrees = degrees * 10 + Int(digit)
        }
        let minutesField = dropFirst(point - 2)
        guard minutesField[0] != UInt8(ascii: "-"), minutesField[0] != UInt8(ascii: "+"),
              let minutes = parseDecimal(minutesField), minutes < 60
        else { throw FieldError(expected: "an angle dddmm.mmmm with minutes below 60") }
        let value = Double(degrees) + minutes / 60
        guard value <= Double(maximumDegrees) else {
            throw FieldError(expected: "an angle of at most \(maximumDegrees) degrees")
        }
        return value
    }
}

extension RawSentence {
    /// Latitude in degrees (north positive) from a `ddmm.mmmm` field and its `N`/`S` field,
    /// which fail together; each malformed one is noted in `malformed`. `nil` when the value is
    /// empty.
    @inline(__always)
    func latitude(_ index: Int, _ malformed: inout [MalformedField]) -> Double? {
        signedAngle(index, maximumDegrees: 90, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), &malformed)
    }

    /// Longitude in degrees (east positive) from a `dddmm.mmmm` field and its `E`/`W` field,
    /// which fail together; each malformed one is noted in `malformed`. `nil` when the value is
    /// empty.
    @inline(__always)
    func longitude(_ index: Int, _ malformed: inout [MalformedField]) -> Double? {
        signedAngle(index, maximumDegrees: 180, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), &malformed)
    }

    @inline(__always)
    func signedAngle(_ index: Int, maximumDegrees: Int, positive: UInt8, negative: UInt8,
                     _ malformed: inout [MalformedField]) -> Double? {
        malformed.reading(
            try angle(index, maximumDegrees: maximumDegrees),
            qualifiedBy: try letter(index + 1, positive, negative, expected: "a hemisphere")
        ) { value, hemisphere throws(MalformedField) in
            guard let hemisphere else { throw MalformedField(index + 1, expected: "a hemisphere") }
            return hemisphere == negative ? -value : value
        }
    }

    /// An angle `dddmm.mmmm` in degrees, unsigned; `nil` when empty.
    @inline(__always)
    func angle(_ index: Int, maximumDegrees: Int) throws(MalformedField) -> Double? {
        if let quick = quickDegreesMinutes(index, maximumDegrees: maximumDegrees) { return quick }
        return try read(index) { field throws(FieldError) in try field.degreesMinutes(maximumDegrees: maximumDegrees) }
    }

    /// A one-letter field that qualifies the field before it (a hemisphere, a direction, a
    /// unit): `first` or `second`; `nil` when empty.
    @inline(__always)
    func letter(_ index: Int, _ first: UInt8, _ second: UInt8, expected: String) throws(MalformedField) -> UInt8? {
        let field = self[index]
        if field.isEmpty { return nil }
        guard field.count == 1, field[0] == first || field[0] == second else {
            throw MalformedField.notLetter(index, first, second, expected: expected)
        }
        return field[0]
    }

    /// ``NMEAField/degreesMinutes(maximumDegrees:)`` for the common field: `dddmm.mmmm` with at
    /// most sixteen bytes of minutes, read a word at a time. `nil` for anything else (an empty
    /// field included), which the general reader then decodes or rejects: the value, when
    /// there is one, is the general reader's to the last bit.
    @usableFromInline @inline(__always)
    func quickDegreesMinutes(_ index: Int, maximumDegrees: Int) -> Double? {
        guard index < fieldCount else { return nil }
        let start = Int(starts[index])
        let end = Int(starts[index &+ 1]) &- 1
        let count = end &- start
        // Eight bytes from the field's start, and eight before its end, lie within the sentence.
        guard count >= 3, start &+ 8 <= length, end >= 8 else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
        let lanes: UInt64 = count >= 8 ? .max : (1 &<< UInt64(8 &* count)) &- 1
        let points = SWAR.zeroBytes(word ^ 0x2E2E_2E2E_2E2E_2E2E) & lanes
        guard points != 0 else { return nil }
        let point = points.trailingZeroBitCount &>> 3
        guard point >= 2, point <= 5 else { return nil }
        var degrees = 0
        if point > 2 {
            degrees = Self.shortWholeNumber(word, count: point &- 2)
            guard degrees >= 0 else { return nil }
        }
        let minutesCount = count &- (point &- 2)
        let minutes: Double
        if minutesCount <= 8 {
            guard let value = Self.eightByteDecimal(endingAt: base + end, count: minutesCount) else { return nil }
            minutes = value
        } else {
            // Up to sixteen bytes (high-precision receivers): the first eight, with the point,
            // and the digits after them, joined into one whole number as the general reader
            // would form it, then divided once.
            guard minutesCount <= 16,
                  let (head, headFraction) = Self.eightByteMantissa(endingAt: base + start + point - 2 + 8, count: 8),
                  headFraction > 0,
                  let (tail, tailFraction) = Self.eightByteMantissa(endingAt: base + end, count: minutesCount &- 8),
                  // Digits only: a point would be a second one (a point as the last byte leaves
                  // no fraction digits, so it is looked for too).
                  tailFraction == 0, base[end &- 1] != UInt8(ascii: ".")
            else { return nil }
            let tailDigits = minutesCount &- 8
            minutes = Double(head &* UInt64(powerOfTen(tailDigits)) &+ tail) / powerOfTen(headFraction &+ tailDigits)
        }
        guard minutes < 60 else { return nil }
        let value = Double(degrees) + minutes / 60
        return value <= Double(maximumDegrees) ? value : nil
    }

    /// Reads field `index` with `reader`, naming the field in the error.
    @inlinable
    func read<T>(_ index: Int, _ reader: (NMEAField) throws(FieldError) -> T) throws(MalformedField) -> T {
        do {
            return try reader(self[index])
        } catch {
            throw MalformedField(fieldIndex: index, error: error)
        }
    }

    /// ``decimal(_:)``'s general reader: any length, every error named.
    @inlinable
    func generalDecimal(_ index: Int) throws(MalformedField) -> Double? {
        try read(index) { field throws(FieldError) in try field.decimal() }
    }

    /// ``integer(_:)``'s general reader.
    @inlinable
    func generalInteger(_ index: Int) throws(MalformedField) -> Int? {
        try read(index) { field throws(FieldError) in try field.integer() }
    }

    @inlinable
    func character(_ index: Int) throws(MalformedField) -> UInt8? {
        try read(index) { field throws(FieldError) in try field.character() }
    }

    /// Field `index` as a time of day `hhmmss[.s…]`; `nil` when empty. The common field is
    /// read a word at a time, anything else by the general reader.
    @inlinable
    func time(_ index: Int) throws(MalformedField) -> TimeOfDay? {
        if let time = quickTimeOfDay(index) { return time }
        return try read(index) { field throws(FieldError) in try field.timeOfDay() }
    }
}
