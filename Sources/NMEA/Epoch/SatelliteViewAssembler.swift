/// Gathers the parts of multi-part GSV groups into ``SatelliteView`` values, one per talker
/// and signal.
///
/// Parts may arrive in any order; a view is complete when every part from 1 to the group's
/// count has arrived. A group that starts again (a part number seen twice) or changes its part
/// count before it is complete is dropped and reported as
/// ``RejectReason/incompleteSatelliteView``: a view with satellites missing would be wrong.
public struct SatelliteViewAssembler: Sendable {
    private struct Key: Hashable, Sendable {
        var talker: UInt16
        var signal: Int
    }

    private struct Group: Sendable {
        var total: Int
        var received: UInt64 = 0
        var satellitesInView: Int?
        var parts: [(number: Int, satellites: GSVSatellites)] = []
        var byteCount = 0
    }

    /// The most groups kept open at once; more can only come from corrupt input.
    public static let maximumOpenGroups = 64
    /// The most parts a group may have (4 satellites each).
    public static let maximumParts = 64

    private var groups: [Key: Group] = [:]

    /// Creates an assembler with no open group.
    public init() {}

    /// Adds one GSV part.
    /// - Parameters:
    ///   - gsv: the part.
    ///   - isUsed: whether a satellite is used in the current fix.
    ///   - time: the epoch's UTC time, stamped on a completed view.
    ///   - complete: called with each completed view.
    ///   - rejected: called with each group that had to be dropped.
    public mutating func add(
        _ gsv: GSV, isUsed: (SatelliteID) -> Bool, time: UTCTime?,
        complete: (SatelliteView) -> Void, rejected: (RejectedInput) -> Void
    ) {
        let key = Key(talker: gsv.talker.code, signal: gsv.signalID ?? -1)
        guard gsv.messageCount <= Self.maximumParts else {
            rejected(RejectedInput(reason: .incompleteSatelliteView, byteCount: 0, bytes: [],
                                   address: "\(gsv.talker)GSV", detail: "\(gsv.messageCount) parts is more than \(Self.maximumParts)"))
            return
        }
        let bit = UInt64(1) << UInt64(gsv.messageNumber - 1)
        if var group = groups[key], group.total != gsv.messageCount || group.received & bit != 0 {
            group.parts.removeAll()
            groups[key] = nil
            rejected(RejectedInput(reason: .incompleteSatelliteView, byteCount: 0, bytes: [], address: "\(gsv.talker)GSV",
                                   detail: "group of \(group.total) ended with parts missing"))
        }
        if groups[key] == nil, groups.count >= Self.maximumOpenGroups {
            groups.removeAll()
        }
        var group = groups[key] ?? Group(total: gsv.messageCount)
        group.received |= bit
        group.satellitesInView = gsv.satellitesInView ?? group.satellitesInView
        group.parts.append((gsv.messageNumber, gsv.satellites))
        let all: UInt64 = gsv.messageCount == 64 ? .max : (UInt64(1) << UInt64(gsv.messageCount)) - 1
        guard group.received == all else {
            groups[key] = group
            return
        }
        groups[key] = nil
        let hint = gsv.talker.constellation
        var satellites: [Satellite] = []
        satellites.reserveCapacity(group.parts.count * 4)
        for part in group.parts.sorted(by: { $0.number < $1.number }) {
            for satellite in part.satellites {
                let id = SatelliteID(nmeaID: satellite.id, constellation: hint)
                satellites.append(Satellite(
                    id: id, nmeaID: satellite.id, elevation: satellite.elevation, azimuth: satellite.azimuth,
                    snr: satellite.snr, used: id.map(isUsed) ?? false))
            }
        }
        complete(SatelliteView(talker: gsv.talker, signalID: gsv.signalID, satellitesInView: group.satellitesInView,
                               satellites: satellites, time: time))
    }
}
