/// What a ``CorrectionsFeed`` has done so far.
public struct CorrectionsStatus: Sendable, Hashable {
    /// Whether the caster is sending the mountpoint's stream now.
    public var isStreaming = false
    /// Frames written to receivers, by RTCM message type (a frame written to two receivers
    /// counts twice).
    public var framesWritten: [Int: Int] = [:]
    /// Bytes written to receivers.
    public var bytesWritten = 0
    /// Frames dropped whole instead of written (no receiver open, a read-only device, a line
    /// too slow for them).
    public var framesDropped = 0
    /// Frames from the caster whose CRC-24Q was wrong: never written.
    public var framesCorrupt = 0
    /// Bytes from the caster that were no frame, skipped.
    public var bytesSkipped = 0
    /// GGA sentences sent to the caster.
    public var positionsSent = 0
    /// When the latest frame was written to a receiver (uptime); `nil` before the first.
    public var lastWritten: ContinuousClock.Instant?

    /// Creates an empty status.
    public init() {}

    /// Every frame written, of every type.
    public var frameCount: Int { framesWritten.values.reduce(0, +) }

    /// Seconds since the latest frame was written to a receiver, at `now`; `nil` before the
    /// first.
    public func age(at now: ContinuousClock.Instant = .now) -> Double? {
        guard let lastWritten else { return nil }
        return (now - lastWritten).inSeconds
    }
}
