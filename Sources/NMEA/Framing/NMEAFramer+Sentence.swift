/// Sentences: the line-end scan, the one-pass checksum and field index, and the checks that
/// hand a sentence out or reject it.
extension NMEAFramer {
    /// Index of the first byte at or after `from` that ends or interrupts a sentence, or `to`.
    @inline(__always)
    func scanSentence(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var index = from
        // Eight bytes at a time while none of them can end a sentence.
        while index + 8 <= to {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if SWAR.endsSentence(word) { break }
            index += 8
        }
        while index < to {
            let byte = base[index]
            // Printable ASCII is 0x20...0x7E; CR, LF and every other control byte fall outside.
            if byte &- 0x20 > 0x5E || byte == UInt8(ascii: "$") { return index }
            index += 1
        }
        return to
    }

    /// Appends to the carry buffer. When the sentence grows past the limit it is rejected as too
    /// long at the first byte past it; the return value is then how many of `bytes` that took.
    func appendToCarry(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ handler: (Event) -> Void) -> Int? {
        let limit = configuration.maximumSentenceLength
        let carried = state.pointee.carryCount
        guard carried + count <= limit else {
            let kept = limit - carried
            (carry + carried).update(from: bytes, count: kept)
            reject(.tooLong, carry, length: limit, byteCount: limit + 1, handler)
            state.pointee.inSentence = false
            state.pointee.carryCount = 0
            return kept + 1
        }
        (carry + carried).update(from: bytes, count: count)
        state.pointee.carryCount = carried + count
        return nil
    }

    /// Handles a sentence that ended at `terminator`. Returns true when the terminator was consumed
    /// as a line end; false when it must be looked at again (a `$` or a non-printable byte).
    func endSentence(
        _ sentence: UnsafePointer<UInt8>, length: Int, terminator: UInt8, _ handler: (Event) -> Void
    ) -> Bool {
        state.pointee.inSentence = false
        state.pointee.carryCount = 0
        if terminator == 0x0D || terminator == 0x0A {
            validate(sentence, length: length, handler)
            return true
        }
        if terminator == UInt8(ascii: "$") {
            // A new sentence starts before this one ended: this one is lost.
            for index in 0..<length { noteSkipped(sentence[index]) }
            return false
        }
        reject(.nonPrintable, sentence, length: length, byteCount: length, handler)
        return false
    }

    /// Indexes a sentence gathered in the carry buffer, then checks and hands it out.
    func validate(_ sentence: UnsafePointer<UInt8>, length: Int, _ handler: (Event) -> Void) {
        // The carry holds no line end, so the scan runs to `length`.
        let (_, sum, fields) = scanFields(sentence, to: length)
        check(sentence, length: length, sum: sum, fields: fields, handler)
    }

    /// Scans `sentence` from the byte after its delimiter up to `to` or the first byte that ends
    /// or interrupts it, in one pass: returns where it stopped, the XOR of the bytes scanned and
    /// the number of fields, whose starts are recorded in `fieldStarts`.
    @inline(__always)
    func scanFields(_ sentence: UnsafePointer<UInt8>, to: Int) -> (end: Int, sum: UInt8, fields: Int) {
        var wide: UInt64 = 0
        var fields = 1
        fieldStarts[0] = 1
        var end = 1
        // Sixteen bytes at a time in vector registers; the block that holds the line end is
        // taken up to it. Lanes are 0xFF where the test holds, so the byte masks below keep
        // whole lanes and the comma loop looks at their high bits.
        while end &+ 16 <= to {
            let block = UnsafeRawPointer(sentence + end).loadUnaligned(as: SIMD16<UInt8>.self)
            let (stops, commas) = SIMDScan.classify(block)
            let words = unsafeBitCast(block, to: SIMD2<UInt64>.self)
            if stops[0] | stops[1] == 0 {
                wide ^= words[0] ^ words[1]
                fields = indexCommas(commas[0], first: end &+ 1, fields: fields)
                fields = indexCommas(commas[1], first: end &+ 9, fields: fields)
                end &+= 16
                continue
            }
            var half = 0
            if stops[0] == 0 {
                wide ^= words[0]
                fields = indexCommas(commas[0], first: end &+ 1, fields: fields)
                half = 1
            }
            let stop = stops[half]
            // The bytes before the first stop: its lane and everything above cleared.
            let below = (stop & (0 &- stop)) &- 1
            wide ^= words[half] & below
            let start = end &+ 8 &* half
            fields = indexCommas(commas[half] & below, first: start &+ 1, fields: fields)
            return (start &+ (stop.trailingZeroBitCount &>> 3), SWAR.fold(wide), fields)
        }
        // Eight bytes at a time for what is left; the word that holds the line end is taken
        // up to it, so no byte-by-byte tail remains unless `to` cuts the sentence short.
        while end &+ 8 <= to {
            let word = UInt64(littleEndian: UnsafeRawPointer(sentence + end).loadUnaligned(as: UInt64.self))
            let stops = SWAR.sentenceEnds(word)
            var commas = SWAR.printableZeroBytes(word ^ SWAR.commas)
            var taken = word
            if stops != 0 {
                // The bytes before the first stop: its high bit and everything above cleared.
                let below = (stops & (0 &- stops)) &- 1
                commas &= below
                taken &= below >> 7
            }
            wide ^= taken
            fields = indexCommas(commas, first: end &+ 1, fields: fields)
            if stops != 0 { return (end &+ (stops.trailingZeroBitCount &>> 3), SWAR.fold(wide), fields) }
            end &+= 8
        }
        var sum = SWAR.fold(wide)
        while end < to {
            let byte = sentence[end]
            if byte &- 0x20 > 0x5E || byte == UInt8(ascii: "$") { break }
            sum ^= byte
            if byte == UInt8(ascii: ",") {
                fieldStarts[fields] = Int32(truncatingIfNeeded: end + 1)
                fields += 1
            }
            end += 1
        }
        return (end, sum, fields)
    }

    /// Records a field start after each comma lane of `commas` (a byte with its high bit set;
    /// lane 0 is the byte before `first`); returns the new field count.
    @inline(__always)
    func indexCommas(_ commas: UInt64, first: Int, fields: Int) -> Int {
        var commas = commas & SWAR.highs
        var fields = fields
        let first = Int32(truncatingIfNeeded: first)
        while commas != 0 {
            fieldStarts[fields] = first &+ Int32(truncatingIfNeeded: commas.trailingZeroBitCount &>> 3)
            fields &+= 1
            commas &= commas &- 1
        }
        return fields
    }

    /// Checks the checksum (`sum` is the XOR of every byte after the delimiter, `*hh`
    /// included) and the address, and hands the sentence out; `fields` field starts are indexed.
    @inline(__always)
    func check(_ sentence: UnsafePointer<UInt8>, length: Int, sum: UInt8, fields: Int, _ handler: (Event) -> Void) {
        var sum = sum
        var dataEnd = length
        if length >= 4, sentence[length - 3] == UInt8(ascii: "*") {
            // The running XOR took in `*hh` too; take it out again.
            sum ^= UInt8(ascii: "*") ^ sentence[length - 2] ^ sentence[length - 1]
            // The sum written out compared with the digits sent: no branch on whether each
            // digit is a figure or a letter, which is as good as random.
            guard SWAR.hexDigitMismatch(sum &>> 4, sentence[length - 2]) | SWAR.hexDigitMismatch(sum & 15, sentence[length - 1]) == 0 else {
                reject(.badChecksum, sentence, length: length, byteCount: length, handler)
                return
            }
            dataEnd = length - 3
        } else {
            var star = 1
            while star < length, sentence[star] != UInt8(ascii: "*") { star += 1 }
            if star < length || !configuration.acceptsMissingChecksum {
                reject(star < length ? .badChecksum : .missingChecksum, sentence, length: length, byteCount: length, handler)
                return
            }
        }
        let addressEnd = fields > 1 ? Int(fieldStarts[1]) - 1 : dataEnd
        guard addressEnd > 1, isAlphanumeric(sentence + 1, count: addressEnd - 1, available: length - 1) else {
            reject(.malformedField, sentence, length: length, byteCount: length, handler, fieldIndex: 0, detail: "expected an address of letters and digits")
            return
        }
        // The start the next field would have: every field then ends at the next start less one.
        fieldStarts[fields] = Int32(truncatingIfNeeded: dataEnd &+ 1)
        handler(.sentence(RawSentence(base: sentence, dataEnd: dataEnd, length: length, starts: fieldStarts, fieldCount: fields)))
    }

    /// Whether `count` bytes are all letters or digits; `available` bytes may be read.
    @inline(__always)
    func isAlphanumeric(_ bytes: UnsafePointer<UInt8>, count: Int, available: Int) -> Bool {
        if count <= 8, available >= 8 {
            // One word: the bytes past the address are replaced by a letter. The sentence's
            // bytes are printable ASCII, so no lane carries into the next.
            let keep: UInt64 = count == 8 ? .max : (1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1
            let loaded = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
            let word = loaded & keep | 0x4141_4141_4141_4141 & ~keep
            return SWAR.inRange(word, UInt8(ascii: "0"), UInt8(ascii: "9"))
                | SWAR.inRange(word | 0x2020_2020_2020_2020, UInt8(ascii: "a"), UInt8(ascii: "z")) == SWAR.highs
        }
        for index in 0..<count {
            let byte = bytes[index]
            let isDigit = byte &- UInt8(ascii: "0") < 10
            let isLetter = (byte | 0x20) &- UInt8(ascii: "a") < 26
            if !(isDigit || isLetter) { return false }
        }
        return true
    }
}
