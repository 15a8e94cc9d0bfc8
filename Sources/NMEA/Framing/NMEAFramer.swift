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

    struct State {
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
        /// Set by ``stopFeeding()`` from a handler: the feed under way returns at the next
        /// boundary between sentences or frames.
        var stopRequested = false
    }

    // State lives behind a pointer the framer owns: the hot loop then pays no dynamic
    // exclusivity check per access, as it would for a class's stored properties.
    let state: UnsafeMutablePointer<State>
    let carry: UnsafeMutablePointer<UInt8>
    let fieldStarts: UnsafeMutablePointer<Int32>
    let ubxCarry: UnsafeMutablePointer<UInt8>

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

    /// ``feed(_:_:)`` that a handler may stop (``stopFeeding()``): returns how many of the
    /// bytes it took, all of them unless it was stopped; the rest is then to be fed later, as
    /// the stream's next bytes.
    public func feedPausable(_ bytes: UnsafeRawBufferPointer, _ handler: (Event) -> Void) -> Int {
        let offset = state.pointee.streamOffset
        state.pointee.stopRequested = false
        let taken = scan(bytes, at: offset, stoppable: true, handler)
        state.pointee.stopRequested = false
        state.pointee.streamOffset += Int64(taken)
        return taken
    }

    /// Makes the ``feedPausable(_:_:)`` under way return after the sentence or frame just
    /// handed out (called from its handler): for a reader whose consumer is full.
    public func stopFeeding() { state.pointee.stopRequested = true }

    /// Reads `bytes`, whose first byte is the stream's byte `offset` (bytes read again after a
    /// false UBX start are the stream's bytes a second time), and returns how many it took:
    /// when `stoppable`, it stops at a boundary once ``stopFeeding()`` was called.
    @discardableResult
    func scan(_ bytes: UnsafeRawBufferPointer, at offset: Int64, stoppable: Bool = false, _ handler: (Event) -> Void) -> Int {
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let count = bytes.count
        let limit = configuration.maximumSentenceLength
        var index = 0
        while index < count {
            if stoppable, state.pointee.stopRequested { return index }
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
                guard end < count else { return count }
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
            guard index < count else { return count }
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
                return count
            }
        }
        return count
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

    func reject(
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
    func noteSkipped(_ byte: UInt8) {
        if state.pointee.skippedCount < configuration.maximumSentenceLength {
            // One allocation per run of skipped bytes, not one per doubling.
            if state.pointee.skippedCount == 0 { state.pointee.skippedSample.reserveCapacity(64) }
            state.pointee.skippedSample.append(byte)
        }
        state.pointee.skippedCount += 1
    }

    func flushSkipped(_ handler: (Event) -> Void) {
        guard state.pointee.skippedCount > 0 else { return }
        let event = RejectedInput(reason: .bytesSkipped, byteCount: state.pointee.skippedCount, bytes: state.pointee.skippedSample)
        state.pointee.skippedCount = 0
        state.pointee.skippedSample = []
        handler(.rejected(event))
    }
}
