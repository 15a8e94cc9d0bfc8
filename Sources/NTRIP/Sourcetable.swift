/// A caster's sourcetable: what `nmeastream` lists for `ntrip://HOST/` before a user picks a
/// mountpoint. Only its `STR` records (the streams) are kept; `CAS` and `NET` records, and
/// lines that are none of these, are skipped.
public struct Sourcetable: Sendable, Hashable {
    /// One stream a caster offers (an `STR` record, fields in NTRIP's order).
    public struct Stream: Sendable, Hashable {
        /// The mountpoint, to put after the caster's address.
        public var mountpoint: String
        /// Where it is, usually a town.
        public var identifier: String
        /// `RTCM 3.2`, `RTCM 3`, `CMR+`...
        public var format: String
        /// The messages and their rates, as the caster words them (`1004(1),1005(10)`).
        public var formatDetails: String
        /// 0: no carrier phase, 1: L1, 2: L1 and L2 (RTK needs 1 or 2).
        public var carrier: Int?
        /// The constellations (`GPS+GLO+GAL+BDS`).
        public var navigationSystems: String
        /// The network it belongs to.
        public var network: String
        /// ISO 3166 country code.
        public var country: String
        /// The base's or the network's position, degrees north; `nil` when not given.
        public var latitude: Double?
        /// Degrees east; `nil` when not given.
        public var longitude: Double?
        /// Whether the caster needs the receiver's position (a GGA) to make the stream: a
        /// network's virtual reference station (VRS).
        public var needsPosition: Bool
        /// Whether the stream is a network's solution rather than one base's.
        public var isNetwork: Bool
        /// The software or hardware that makes it.
        public var generator: String
        /// `N` none, `B` HTTP Basic, `D` digest.
        public var authentication: String
        /// Whether the stream costs money (`Y`).
        public var fee: Bool
        /// Its rate in bits per second; `nil` when not given.
        public var bitrate: Int?
    }

    /// The streams, in the caster's order.
    public var streams: [Stream]

    /// Reads a sourcetable's text (up to `ENDSOURCETABLE`, or all of it).
    public init(text: String) {
        var streams: [Stream] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("ENDSOURCETABLE") { break }
            let fields = line.split(separator: ";", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            guard fields.first == "STR", fields.count >= 2, !fields[1].isEmpty else { continue }
            func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
            streams.append(Stream(
                mountpoint: field(1), identifier: field(2), format: field(3), formatDetails: field(4),
                carrier: Int(field(5)), navigationSystems: field(6), network: field(7), country: field(8),
                latitude: Double(field(9)), longitude: Double(field(10)), needsPosition: field(11) == "1",
                isNetwork: field(12) == "1", generator: field(13), authentication: field(15), fee: field(16) == "Y",
                bitrate: Int(field(17))))
        }
        self.streams = streams
    }
}
