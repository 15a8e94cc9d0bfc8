/// Gathers the parts of multi-part GSV groups into ``SatelliteView`` values, one per talker
/// and signal.
///
/// Parts may arrive in any order; a view is complete when every part from 1 to the group's
/// count has arrived. A group that starts again (a part number seen twice) or changes its part
/// count before it is complete is dropped and reported as
/// ``RejectReason/incompleteSatelliteView``: a view with satellites missing would be wrong.
/// The satellites' `used` flags are left `false`; ``EpochAssembler`` sets them from GSA.
public struct SatelliteViewAssembler: Sendable {
    /// What adding a part produced.
    public struct Result: Sendable {
        /// The view the part completed, if it did.
        public var completed: SatelliteView?
        /// The group the part forced out with parts missing, if any.
        public var dropped: RejectedInput?
    }

    private struct Group: Sendable {
        var talker: UInt16
        var signal: Int
        var total = 0
        var received: UInt64 = 0
        var satellitesInView: Int?
        /// Part n's satellites at index n - 1; reused from one cycle to the next.
        var parts: [GSVSatellites] = []

        var isOpen: Bool { received != 0 }
    }

    /// The most groups tracked at once; more can only come from corrupt input.
    public static let maximumGroups = 64
    /// The most parts a group may have (4 satellites each).
    public static let maximumParts = 64

    private var groups: [Group] = []

    /// Creates an assembler with no open group.
    public init() {}

    /// Adds one GSV part, stamping a completed view with `time`.
    public mutating func add(_ gsv: GSV, time: UTCTime?) -> Result {
        var result = Result()
        guard gsv.messageCount <= Self.maximumParts else {
            result.dropped = RejectedInput(reason: .incompleteSatelliteView, byteCount: 0, bytes: [], address: "\(gsv.talker)GSV",
                                           detail: "\(gsv.messageCount) parts is more than \(Self.maximumParts)")
            return result
        }
        let signal = gsv.signalID ?? -1
        var index = groups.firstIndex { $0.talker == gsv.talker.code && $0.signal == signal }
        if index == nil {
            if groups.count >= Self.maximumGroups { groups.removeAll() }
            groups.append(Group(talker: gsv.talker.code, signal: signal))
            index = groups.count - 1
        }
        let slot = index!
        let bit = UInt64(1) << UInt64(gsv.messageNumber - 1)
        if groups[slot].isOpen, groups[slot].total != gsv.messageCount || groups[slot].received & bit != 0 {
            result.dropped = RejectedInput(reason: .incompleteSatelliteView, byteCount: 0, bytes: [], address: "\(gsv.talker)GSV",
                                           detail: "group of \(groups[slot].total) ended with parts missing")
            groups[slot].received = 0
        }
        if !groups[slot].isOpen {
            groups[slot].total = gsv.messageCount
            groups[slot].satellitesInView = nil
            if groups[slot].parts.count < gsv.messageCount {
                groups[slot].parts.append(contentsOf: repeatElement(GSVSatellites(), count: gsv.messageCount - groups[slot].parts.count))
            }
        }
        groups[slot].received |= bit
        groups[slot].satellitesInView = gsv.satellitesInView ?? groups[slot].satellitesInView
        groups[slot].parts[gsv.messageNumber - 1] = gsv.satellites
        let all: UInt64 = gsv.messageCount == 64 ? .max : (UInt64(1) << UInt64(gsv.messageCount)) - 1
        guard groups[slot].received == all else { return result }
        groups[slot].received = 0

        let hint = gsv.talker.constellation
        var satellites: [Satellite] = []
        satellites.reserveCapacity(gsv.messageCount * 4)
        for part in groups[slot].parts.prefix(gsv.messageCount) {
            for satellite in part {
                satellites.append(Satellite(
                    id: SatelliteID(nmeaID: satellite.id, constellation: hint), nmeaID: satellite.id,
                    elevation: satellite.elevation, azimuth: satellite.azimuth, snr: satellite.snr))
            }
        }
        result.completed = SatelliteView(talker: gsv.talker, signalID: gsv.signalID, satellitesInView: groups[slot].satellitesInView,
                                         satellites: satellites, time: time)
        return result
    }
}
