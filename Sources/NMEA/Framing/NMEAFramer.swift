/// Cuts a byte stream into NMEA 0183 sentences and u-blox UBX frames.
///
/// Feed it chunks of any size, split anywhere: it finds `$` and `!` sentence starts, ends a
/// sentence at `\r\n`, `\n`, `\r` or `\r\r\n`, checks the `*hh` checksum (either hex case), and
/// starts over at a `$` that appears inside a sentence. It also finds UBX frames (`0xB5 0x62`,
/// class, id, length, payload, Fletcher checksum) among the sentences and hands out those
/// whose checksum holds; a frame whose checksum fails is reported and the bytes after its sync
/// bytes are read again, so that a false start in noise never swallows what follows.
/// Everything else (other binary protocols, line noise, truncated sentences) is skipped and
/// reported as ``RejectedInput``. Memory is
/// bounded: a sentence that grows past ``Configuration/maximumSentenceLength`` is rejected as
/// ``RejectReason/tooLong`` at its first byte past the limit (what follows, up to the next `$`,
/// is skipped bytes), and nothing else is buffered. The output does not depend on how the
/// input was split into chunks.
///
/// A sentence that lies wholly inside one chunk is handed out in place, without a copy; only a
/// sentence split across chunks is gathered in the framer's own buffer. A framer is not
/// thread-safe: use it from one queue at a time.
public final class NMEAFramer {
    /// What the framer accepts.
    public struct Configuration: Sendable, Hashable {
        /// The longest sentence accepted, in bytes from `$` through the checksum. NMEA 0183 says
        /// 82 with the line end; receivers exceed it (u-blox `PUBX`, Trimble), so the default is 256.
        public var maximumSentenceLength: Int
        /// Whether sentences with no `*hh` checksum are delivered (`true`) or rejected as
        /// ``RejectReason/missingChecksum`` (`false`, the default).
        public var acceptsMissingChecksum: Bool
        /// The longest UBX payload accepted, in bytes. A frame whose length says more is taken
        /// for a false start: its first sync byte is skipped and the bytes after it are read on.
        /// The default, 8,192, holds u-blox's largest messages of a fix (NAV-SAT and NAV-SIG of
        /// every signal, RXM-RAWX); at most 65,535.
        public var maximumUBXPayloadLength: Int

        /// Creates a configuration.
        public init(maximumSentenceLength: Int = 256, acceptsMissingChecksum: Bool = false,
                    maximumUBXPayloadLength: Int = 8192) {
            self.maximumSentenceLength = max(16, min(maximumSentenceLength, 4096))
            self.acceptsMissingChecksum = acceptsMissingChecksum
            self.maximumUBXPayloadLength = max(0, min(maximumUBXPayloadLength, 65535))
        }
    }

    /// What the framer hands out.
    public enum Event {
        /// A checksum-valid sentence; valid only during the callback.
        case sentence(RawSentence)
        /// A checksum-valid UBX frame; valid only during the callback.
        case ubx(UBXFrame)
        /// Input that did not make a sentence.
        case rejected(RejectedInput)
    }

    /// The configuration in force.
    public let configuration: Configuration

    private struct State {
        var carryCount = 0
        var inSentence = false
        var skippedCount = 0
        var skippedSample: [UInt8] = []
        /// Bytes of a UBX frame gathered in `ubxCarry` (0: not in a frame).
        var ubxCount = 0
        /// Where in the stream that frame began, and how many bytes the stream has had before
        /// the chunk being fed.
        var ubxStart: Int64 = 0
        var streamOffset: Int64 = 0
        /// The bytes of UBX frames that failed their checksum: the work false starts cost.
        var ubxWorkSpent: Int64 = 0
    }

    // State lives behind a pointer the framer owns: the hot loop then pays no dynamic
    // exclusivity check per access, as it would for a class's stored properties.
    private let state: UnsafeMutablePointer<State>
    private let carry: UnsafeMutablePointer<UInt8>
    private let fieldStarts: UnsafeMutablePointer<Int32>
    private let ubxCarry: UnsafeMutablePointer<UInt8>

    /// Creates a framer.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        // Room past the longest sentence: field readers may load a word that starts in the
        // last field and runs past it (see ``RawSentence/shortWholeNumber(_:)``).
        carry = .allocate(capacity: configuration.maximumSentenceLength + 8)
        carry.initialize(repeating: 0, count: configuration.maximumSentenceLength + 8)
        fieldStarts = .allocate(capacity: configuration.maximumSentenceLength + 2)
        ubxCarry = .allocate(capacity: configuration.maximumUBXPayloadLength + 8)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        carry.deallocate()
        fieldStarts.deallocate()
        ubxCarry.deallocate()
    }

    /// Feeds `bytes` and calls `handler` for every sentence completed and every rejection.
    public func feed(_ bytes: UnsafeRawBufferPointer, _ handler: (Event) -> Void) {
        let offset = state.pointee.streamOffset
        state.pointee.streamOffset += Int64(bytes.count)
        scan(bytes, at: offset, handler)
    }

    /// Reads `bytes`, whose first byte is the stream's byte `offset` (bytes read again after a
    /// false UBX start are the stream's bytes a second time).
    private func scan(_ bytes: UnsafeRawBufferPointer, at offset: Int64, _ handler: (Event) -> Void) {
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        let limit = configuration.maximumSentenceLength
        var index = 0
        while index < count {
            if state.pointee.ubxCount > 0 {
                index = continueUBX(start, from: index, to: count, handler)
                continue
            }
            if state.pointee.inSentence {
                let end = scanSentence(start, from: index, to: count)
                if let consumed = appendToCarry(start + index, end - index, handler) {
                    index += consumed
                    continue
                }
                guard end < count else { return }
                index = endSentence(carry, length: state.pointee.carryCount, terminator: start[end], handler) ? end + 1 : end
                continue
            }
            // Hunt for a start delimiter.
            while index < count {
                let byte = start[index]
                if byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") || byte == UBX.sync1 { break }
                if byte != 0x0D && byte != 0x0A { noteSkipped(byte) }
                index += 1
            }
            guard index < count else { return }
            if start[index] == UBX.sync1 {
                index = beginUBX(start, at: index, to: count, streamPosition: offset + Int64(index), handler)
                continue
            }
            if state.pointee.skippedCount > 0 { flushSkipped(handler) }
            // Fast path: scan the sentence in place, checksum and field starts in the same pass.
            let sentenceStart = index
            let sentence = start + sentenceStart
            let scanEnd = min(count, sentenceStart + limit + 1)
            let (scanned, sum, fields) = scanFields(sentence, to: scanEnd - sentenceStart)
            let end = sentenceStart + scanned
            if end < scanEnd {
                let terminator = start[end]
                let length = end - sentenceStart
                if terminator == 0x0D || terminator == 0x0A {
                    check(sentence, length: length, sum: sum, fields: fields, handler)
                    index = end + 1
                } else {
                    index = endSentence(sentence, length: length, terminator: terminator, handler) ? end + 1 : end
                }
            } else if scanEnd == sentenceStart + limit + 1 {
                // Too long, wherever the chunk happens to end: reject at the first byte past the limit.
                reject(.tooLong, sentence, length: limit, byteCount: limit + 1, handler)
                index = scanEnd
            } else {
                state.pointee.inSentence = true
                state.pointee.carryCount = 0
                _ = appendToCarry(sentence, count - sentenceStart, handler)
                return
            }
        }
    }

    /// Whether a sentence or a UBX frame has started and waits for the rest of its bytes in a
    /// later chunk.
    public var hasPartialSentence: Bool { state.pointee.inSentence || state.pointee.ubxCount > 0 }

    /// Ends the input: a sentence still waiting for its line end is rejected, skipped bytes are
    /// reported, and the framer is ready for a new stream.
    public func finish(_ handler: (Event) -> Void) {
        if state.pointee.inSentence, state.pointee.carryCount > 0 {
            // No line end: a truncated sentence. It is reported as skipped bytes.
            for index in 0..<state.pointee.carryCount { noteSkipped(carry[index]) }
        }
        state.pointee.inSentence = false
        state.pointee.carryCount = 0
        // A UBX frame cut short was no frame: its first byte is skipped and the rest read again
        // (a false start in noise may hold sentences), until nothing is left waiting.
        while state.pointee.ubxCount > 0 || state.pointee.inSentence {
            if state.pointee.ubxCount > 0 {
                abandonUBX(readingAgainFrom: 1, handler)
            } else {
                for index in 0..<state.pointee.carryCount { noteSkipped(carry[index]) }
                state.pointee.inSentence = false
                state.pointee.carryCount = 0
            }
        }
        state.pointee.inSentence = false
        state.pointee.carryCount = 0
        flushSkipped(handler)
        state.pointee.streamOffset = 0
        state.pointee.ubxWorkSpent = 0
    }

    /// The work false UBX starts may cost, in bytes checksummed and read again: 1 MiB, and 4
    /// bytes more for every byte of the stream. A frame whose checksum fails is checksummed
    /// whole and its bytes read again (they may hold sentences or the real frame), so a stream
    /// of made-up headers claiming 8 KB each would otherwise cost some 8 KB of work per 6 bytes.
    /// Past the bound a `0xB5 0x62` is not taken for a frame's start until the stream has caught
    /// up: the work stays linear in the input, whatever the input. No real receiver comes near
    /// it (one corrupted frame in a hundred costs a hundredth of a byte of work per byte); a
    /// frame sent while a stream of noise holds the bound is skipped with the noise. The bound
    /// depends on the stream's positions only, so the output does not depend on how the input
    /// is split.
    static let ubxWorkAllowance: Int64 = 1 << 20
    static let ubxWorkPerByte: Int64 = 4

    /// Starts a UBX frame at `at` (its first sync byte); returns where reading goes on. A frame
    /// wholly in the chunk is checked in place; one that runs past it is gathered in `ubxCarry`.
    /// (Out of line, as is `continueUBX`: the sentence loop stays small. Why it matters is said
    /// once, at the decoder's UBX path.)
    @inline(never)
    private func beginUBX(_ base: UnsafePointer<UInt8>, at index: Int, to count: Int, streamPosition: Int64,
                          _ handler: (Event) -> Void) -> Int {
        if state.pointee.ubxWorkSpent > Self.ubxWorkAllowance + Self.ubxWorkPerByte * streamPosition {
            noteSkipped(UBX.sync1)
            return index + 1
        }
        let available = count - index
        if available >= 2, base[index + 1] != UBX.sync2 {
            noteSkipped(UBX.sync1)
            return index + 1
        }
        if available >= UBX.headerLength {
            guard let total = frameLength(base + index) else {
                noteSkipped(UBX.sync1)
                return index + 1
            }
            if available >= total {
                // After a bad checksum, the bytes after the sync bytes are read again.
                return finishUBX(base + index, length: total, handler) ? index + total : index + 2
            }
        }
        // Bytes skipped before it stay pending: if this proves no frame, its first byte joins
        // them, as it would have with the whole frame in one chunk.
        ubxCarry.update(from: base + index, count: available)
        state.pointee.ubxCount = available
        state.pointee.ubxStart = streamPosition
        return count
    }

    /// Goes on with the UBX frame gathered in `ubxCarry`; returns where reading goes on.
    @inline(never)
    private func continueUBX(_ base: UnsafePointer<UInt8>, from index: Int, to count: Int, _ handler: (Event) -> Void) -> Int {
        var index = index
        var carried = state.pointee.ubxCount
        if carried < UBX.headerLength {
            let taken = min(UBX.headerLength - carried, count - index)
            (ubxCarry + carried).update(from: base + index, count: taken)
            carried += taken
            index += taken
            state.pointee.ubxCount = carried
            // The sync bytes are checked as soon as both are in.
            if carried >= 2, ubxCarry[1] != UBX.sync2 {
                abandonUBX(readingAgainFrom: 1, handler)
                return index
            }
            guard carried == UBX.headerLength else { return index }
            guard frameLength(ubxCarry) != nil else {
                abandonUBX(readingAgainFrom: 1, handler)
                return index
            }
        }
        let total = frameLength(ubxCarry)!
        let taken = min(total - carried, count - index)
        (ubxCarry + carried).update(from: base + index, count: taken)
        carried += taken
        index += taken
        state.pointee.ubxCount = carried
        guard carried == total else { return index }
        state.pointee.ubxCount = 0
        if !finishUBX(ubxCarry, length: total, handler) {
            readAgain(ubxCarry + 2, count: total - 2, at: state.pointee.ubxStart + 2, handler)
        }
        return index
    }

    /// The whole length of the frame whose six header bytes start at `header`, or `nil` when
    /// its payload would be longer than the configuration allows.
    @inline(__always)
    private func frameLength(_ header: UnsafePointer<UInt8>) -> Int? {
        let payload = Int(header[4]) | Int(header[5]) << 8
        return payload <= configuration.maximumUBXPayloadLength ? payload + UBX.headerLength + 2 : nil
    }

    /// Checks a whole frame's checksum and hands it out, or reports it; returns whether it held.
    private func finishUBX(_ frame: UnsafePointer<UInt8>, length: Int, _ handler: (Event) -> Void) -> Bool {
        flushSkipped(handler)
        let (a, b) = UBXFrame.checksum(frame + 2, count: length - 4)
        guard a == frame[length - 2], b == frame[length - 1] else {
            // The two sync bytes are what this rejection covers: the bytes after them are read
            // again, as sentences, frames or skipped bytes.
            state.pointee.ubxWorkSpent += Int64(length)
            let kind = UBXMessageKind(messageClass: frame[2], messageID: frame[3])
            let sample = Array(UnsafeBufferPointer(start: frame, count: min(length, configuration.maximumSentenceLength)))
            handler(.rejected(RejectedInput(reason: .badChecksum, byteCount: 2, bytes: sample, address: kind.description,
                                            detail: "a UBX frame of \(length - 8) payload bytes")))
            return false
        }
        handler(.ubx(UBXFrame(base: frame, length: length)))
        return true
    }

    /// Gives up the UBX frame begun in `ubxCarry`: its first sync byte is skipped and what was
    /// gathered after `from` is read again.
    private func abandonUBX(readingAgainFrom from: Int, _ handler: (Event) -> Void) {
        let carried = state.pointee.ubxCount
        state.pointee.ubxCount = 0
        for index in 0..<from { noteSkipped(ubxCarry[index]) }
        readAgain(ubxCarry + from, count: carried - from, at: state.pointee.ubxStart + Int64(from), handler)
    }

    /// Reads bytes that were taken for a UBX frame again, from a copy (the carry they sit in is
    /// reused by what they hold).
    private func readAgain(_ bytes: UnsafePointer<UInt8>, count: Int, at offset: Int64, _ handler: (Event) -> Void) {
        guard count > 0 else { return }
        let copy = Array(UnsafeBufferPointer(start: bytes, count: count))
        copy.withUnsafeBytes { scan($0, at: offset, handler) }
    }

    /// Index of the first byte at or after `from` that ends or interrupts a sentence, or `to`.
    @inline(__always)
    private func scanSentence(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
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
    private func appendToCarry(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ handler: (Event) -> Void) -> Int? {
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
    private func endSentence(
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
    private func validate(_ sentence: UnsafePointer<UInt8>, length: Int, _ handler: (Event) -> Void) {
        // The carry holds no line end, so the scan runs to `length`.
        let (_, sum, fields) = scanFields(sentence, to: length)
        check(sentence, length: length, sum: sum, fields: fields, handler)
    }

    /// Scans `sentence` from the byte after its delimiter up to `to` or the first byte that ends
    /// or interrupts it, in one pass: returns where it stopped, the XOR of the bytes scanned and
    /// the number of fields, whose starts are recorded in `fieldStarts`.
    @inline(__always)
    private func scanFields(_ sentence: UnsafePointer<UInt8>, to: Int) -> (end: Int, sum: UInt8, fields: Int) {
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
    private func indexCommas(_ commas: UInt64, first: Int, fields: Int) -> Int {
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
    private func check(_ sentence: UnsafePointer<UInt8>, length: Int, sum: UInt8, fields: Int, _ handler: (Event) -> Void) {
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
    private func isAlphanumeric(_ bytes: UnsafePointer<UInt8>, count: Int, available: Int) -> Bool {
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

    private func reject(
        _ reason: RejectReason, _ bytes: UnsafePointer<UInt8>, length: Int, byteCount: Int,
        _ handler: (Event) -> Void, fieldIndex: Int? = nil, detail: String? = nil
    ) {
        flushSkipped(handler)
        let sample = Array(UnsafeBufferPointer(start: bytes, count: min(length, configuration.maximumSentenceLength)))
        var address: String?
        if let comma = sample.firstIndex(of: UInt8(ascii: ",")), comma > 1, reason != .malformedField {
            address = String(decoding: sample[1..<comma], as: UTF8.self)
        }
        handler(.rejected(RejectedInput(reason: reason, byteCount: byteCount, bytes: sample, address: address, fieldIndex: fieldIndex, detail: detail)))
    }

    @inline(__always)
    private func noteSkipped(_ byte: UInt8) {
        if state.pointee.skippedCount < configuration.maximumSentenceLength {
            // One allocation per run of skipped bytes, not one per doubling.
            if state.pointee.skippedCount == 0 { state.pointee.skippedSample.reserveCapacity(64) }
            state.pointee.skippedSample.append(byte)
        }
        state.pointee.skippedCount += 1
    }

    private func flushSkipped(_ handler: (Event) -> Void) {
        guard state.pointee.skippedCount > 0 else { return }
        let event = RejectedInput(reason: .bytesSkipped, byteCount: state.pointee.skippedCount, bytes: state.pointee.skippedSample)
        state.pointee.skippedCount = 0
        state.pointee.skippedSample = []
        handler(.rejected(event))
    }
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

/// The constants of UBX framing.
enum UBX {
    /// The first sync byte, `µ` in Latin-1.
    static let sync1: UInt8 = 0xB5
    /// The second sync byte, `b`.
    static let sync2: UInt8 = 0x62
    /// Sync bytes, class, id and the payload's length.
    static let headerLength = 6
}
