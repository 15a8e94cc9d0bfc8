/// What a watching client is sent from a device, as gpsd decides it from the client's
/// ``WatchPolicy``: its reports as JSON, its sentences as received, or its bytes unchanged.
public struct WatchedStreams: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `TPV`, `SKY` and the other report classes, as JSON (`json`).
    public static let reports = WatchedStreams(rawValue: 1)
    /// Each valid sentence as received (`nmea`, or `raw` 1).
    public static let sentences = WatchedStreams(rawValue: 2)
    /// The device's bytes unchanged (`raw` 2, which takes the place of the sentences).
    public static let bytes = WatchedStreams(rawValue: 4)
    /// `TOFF` and `PPS`, the time service's samples (`pps`).
    public static let timing = WatchedStreams(rawValue: 8)
}

extension WatchPolicy {
    /// What goes to this client from the device at `path`; `nil` when it does not watch that
    /// device (empty when it watches but asked for no stream: the device opens for it, and it
    /// is sent notices only).
    public func streams(from path: String) -> WatchedStreams? {
        guard watches(path) else { return nil }
        var streams: WatchedStreams = []
        if json { streams.insert(.reports) }
        if raw == 2 {
            streams.insert(.bytes)
        } else if nmea || raw == 1 {
            streams.insert(.sentences)
        }
        if pps { streams.insert(.timing) }
        return streams
    }
}
