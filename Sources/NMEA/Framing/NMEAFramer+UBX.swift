/// UBX frames among the sentences: a frame wholly in a chunk is checked in place, one split
/// across chunks is gathered in `ubxCarry`, and a false start is read again.
extension NMEAFramer {
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
    func beginUBX(_ base: UnsafePointer<UInt8>, at index: Int, to count: Int, streamPosition: Int64,
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
    func continueUBX(_ base: UnsafePointer<UInt8>, from index: Int, to count: Int, _ handler: (Event) -> Void) -> Int {
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
    func frameLength(_ header: UnsafePointer<UInt8>) -> Int? {
        let payload = Int(header[4]) | Int(header[5]) << 8
        return payload <= configuration.maximumUBXPayloadLength ? payload + UBX.headerLength + 2 : nil
    }

    /// Checks a whole frame's checksum and hands it out, or reports it; returns whether it held.
    func finishUBX(_ frame: UnsafePointer<UInt8>, length: Int, _ handler: (Event) -> Void) -> Bool {
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
    func abandonUBX(readingAgainFrom from: Int, _ handler: (Event) -> Void) {
        let carried = state.pointee.ubxCount
        state.pointee.ubxCount = 0
        for index in 0..<from { noteSkipped(ubxCarry[index]) }
        readAgain(ubxCarry + from, count: carried - from, at: state.pointee.ubxStart + Int64(from), handler)
    }

    /// Reads bytes that were taken for a UBX frame again, from a copy (the carry they sit in is
    /// reused by what they hold).
    func readAgain(_ bytes: UnsafePointer<UInt8>, count: Int, at offset: Int64, _ handler: (Event) -> Void) {
        guard count > 0 else { return }
        let copy = Array(UnsafeBufferPointer(start: bytes, count: count))
        _ = copy.withUnsafeBytes { scan($0, at: offset, handler) }
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
