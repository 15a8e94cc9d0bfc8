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

    /// Adds one GSV part. A completed view has no ``SatelliteView/time`` yet: the caller, which
    /// knows the epoch, stamps it.
    public mutating func add(_ gsv: GSV) -> Result {
        var result = Result()
        var noSpares = SkyAssembler()
        result.completed = add(gsv, spares: &noSpares, dropped: { result.dropped = $0 })
        return result
    }

    /// ``add(_:)`` for the decoder's hot path, with no result structure to copy: returns the
    /// completed view, if any, built in a satellites array from `spares` (of a view its receiver
    /// let go of, see ``SkyAssembler/spareSatellites()``), and hands a dropped group to `dropped`.
    mutating func add(_ gsv: GSV, spares: inout SkyAssembler, dropped: (RejectedInput) -> Void) -> SatelliteView? {
        // A part whose count or number was malformed (and reported so) has no place in a group.
        guard let messageCount = gsv.messageCount, let messageNumber = gsv.messageNumber else { return nil }
        guard messageCount <= Self.maximumParts else {
            dropped(RejectedInput(reason: .incompleteSatelliteView, byteCount: 0, bytes: [], address: gsv.talker.description + "GSV",
                                  detail: "\(messageCount) parts is more than \(Self.maximumParts)"))
            return nil
        }
        let signal = gsv.signalID ?? -1
        let talker = gsv.talker.code
        var slot = -1
        for index in groups.indices where groups[index].talker == talker && groups[index].signal == signal {
            slot = index
            break
        }
        if slot < 0 {
            if groups.count >= Self.maximumGroups { groups.removeAll() }
            groups.append(Group(talker: talker, signal: signal))
            slot = groups.count - 1
        }
        let bit = UInt64(1) << UInt64(messageNumber - 1)
        let all: UInt64 = messageCount == 64 ? .max : (UInt64(1) << UInt64(messageCount)) - 1
        // Work on the group in place: no copy of its parts, no check per access.
        let complete = groups.withUnsafeMutableBufferPointer { buffer -> Bool in
            let group = buffer.baseAddress! + slot
            if group.pointee.isOpen, group.pointee.total != messageCount || group.pointee.received & bit != 0 {
                dropped(RejectedInput(reason: .incompleteSatelliteView, byteCount: 0, bytes: [], address: gsv.talker.description + "GSV",
                                      detail: "group of \(group.pointee.total) ended with parts missing"))
                group.pointee.received = 0
            }
            if !group.pointee.isOpen {
                group.pointee.total = messageCount
                group.pointee.satellitesInView = nil
                if group.pointee.parts.count < messageCount {
                    group.pointee.parts.append(contentsOf: repeatElement(GSVSatellites(), count: messageCount - group.pointee.parts.count))
                }
            }
            group.pointee.received |= bit
            if let value = gsv.satellitesInView { group.pointee.satellitesInView = value }
            group.pointee.parts[messageNumber - 1] = gsv.satellites
            guard group.pointee.received == all else { return false }
            group.pointee.received = 0
            return true
        }
        guard complete else { return nil }

        let hint = gsv.talker.constellation
        var satellites = spares.spareSatellites()
        // Unique (the last epoch's receiver let it go): emptied in place. Still shared: a fresh
        // buffer, the allocation a new array would have cost anyway.
        satellites.removeAll(keepingCapacity: true)
        satellites.reserveCapacity(spares.satelliteCapacity(for: messageCount * 4))
        // GPS 1-32 from a GPS or combined talker, most satellites of most views, mapped here
        // without the call the other numbering ranges take.
        let gpsNumbering = hint == nil || hint == .gps
        for part in groups[slot].parts.prefix(messageCount) {
            for satellite in part {
                let number = satellite.id
                let id = gpsNumbering && UInt(bitPattern: number &- 1) < 32
                    ? SatelliteID(constellation: .gps, svid: number) : SatelliteID(nmeaID: number, constellation: hint)
                satellites.append(Satellite(satellite, id: id))
            }
        }
        return SatelliteView(talker: gsv.talker, signalID: gsv.signalID, satellitesInView: groups[slot].satellitesInView,
                             satellites: satellites)
    }
}
