/// Tells, from when a device's reads return and how many bytes each brings, whether the line
/// was quiet before a read: a receiver sends a burst of sentences per cycle, then pauses until
/// the next, and a sentence's place before or after that pause says which cycle it belongs to
/// where the order alone cannot (``NMEADecoder/noteQuiet(_:)``).
///
/// The bytes a read returns came over the line one after another since the read before, so the
/// line was idle for at least the time between the two reads less the time those bytes took
/// at the port's speed (ten bits a byte). A read the scheduler delayed brings the bytes that
/// came meanwhile, which account for its wait: only a pause of the receiver counts.
struct QuietLine: Sendable {
    /// The shortest idle time taken as a pause between bursts, in nanoseconds: longer than a
    /// USB serial adapter holds bytes back (16 ms, an FTDI chip's latency timer), shorter than
    /// the pause between the bursts of a 10 Hz receiver at 115,200 bit/s (about 50 ms).
    static let minimumPause: UInt64 = 25_000_000

    /// The port's speed in bits per second; `nil` when unknown, and then bytes are taken to
    /// come at once (as through a pseudo-terminal).
    var bitsPerSecond: Int?
    /// When the last read returned, in nanoseconds of the monotonic clock.
    private var lastRead: UInt64?

    /// Creates a detector for a port at `bitsPerSecond`.
    init(bitsPerSecond: Int? = nil) {
        self.bitsPerSecond = bitsPerSecond
    }

    /// A read returned `byteCount` bytes at `now` (nanoseconds of a monotonic clock). Returns
    /// whether the line was quiet for at least ``minimumPause`` before them.
    mutating func read(byteCount: Int, at now: UInt64) -> Bool {
        defer { lastRead = now }
        guard let lastRead, now > lastRead else { return false }
        let waited = now - lastRead
        var transfer: UInt64 = 0
        if let bitsPerSecond, bitsPerSecond > 0 {
            transfer = UInt64(byteCount) * 10_000_000_000 / UInt64(bitsPerSecond)
        }
        return waited > transfer && waited - transfer >= Self.minimumPause
    }

    /// Forgets the last read: the next comes from another device, or after a reopening.
    mutating func reset() {
        lastRead = nil
    }
}
