/// Cuts a stream of RTCM 3 (what an NTRIP caster sends) into checked frames, counting what it
/// finds: frames by message type, frames whose checksum fails, and bytes that belong to no
/// frame. A frame whose checksum fails is not handed on, and the search starts again at its
/// second byte, so that a frame hidden behind a false preamble is still found. Fed in chunks
/// split anywhere; holds at most one frame's bytes (1,029) between chunks.
///
/// A false preamble (a `0xD3` inside a corrupt frame, followed by a plausible length) holds
/// the frames after it until that length has arrived and its checksum failed: up to a
/// kilobyte of delay, never a loss. A caster's TCP stream does not corrupt frames, so this
/// is rare; the checksum is the only sure test of a frame, as in gpsd.
public struct RTCM3Framer: Sendable {
    /// What went through so far.
    public struct Counts: Sendable, Hashable {
        /// Frames handed on, by message type (0 for a frame too short to have one).
        public var frames: [Int: Int] = [:]
        /// Frames whose CRC-24Q did not match: dropped.
        public var badChecksums = 0
        /// Bytes that belonged to no frame (before a preamble, or a false one's).
        public var bytesSkipped = 0

        /// Nothing counted yet.
        public init() {}

        /// Frames handed on, of every type.
        public var frameCount: Int { frames.values.reduce(0, +) }

        /// These counts and `other`'s together (two connections' streams).
        public func adding(_ other: Counts) -> Counts {
            var sum = self
            sum.frames.merge(other.frames, uniquingKeysWith: +)
            sum.badChecksums += other.badChecksums
            sum.bytesSkipped += other.bytesSkipped
            return sum
        }
    }

    /// What went through so far.
    public private(set) var counts = Counts()
    /// Bytes of a frame not yet complete, from its preamble.
    private var carry: [UInt8] = []

    /// A framer at the start of a stream.
    public init() {}

    /// Takes the next bytes of the stream; `frame` is called with each complete, checked frame,
    /// in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>, frame: (RTCM3Frame) -> Void) {
        carry.append(contentsOf: bytes)
        var start = 0
        defer { carry.removeFirst(start) }
        while start < carry.count {
            guard carry[start] == RTCM3Frame.preamble else {
                let next = carry[start...].firstIndex(of: RTCM3Frame.preamble) ?? carry.count
                counts.bytesSkipped += next - start
                start = next
                continue
            }
            guard carry.count - start >= RTCM3Frame.headerLength else { return }
            // Reserved bits set: no frame starts here.
            guard carry[start + 1] & 0xFC == 0 else {
                counts.bytesSkipped += 1
                start += 1
                continue
            }
            let total = RTCM3Frame.headerLength + RTCM3Frame.payloadLength(carry[start + 1], carry[start + 2]) + RTCM3Frame.checksumLength
            guard carry.count - start >= total else { return }
            let candidate = carry[start..<start + total]
            guard RTCM3Frame.checksumMatches(candidate) else {
                counts.badChecksums += 1
                counts.bytesSkipped += 1
                start += 1
                continue
            }
            let checked = RTCM3Frame(checked: Array(candidate))
            counts.frames[checked.messageType ?? 0, default: 0] += 1
            start += total
            frame(checked)
        }
    }
}
