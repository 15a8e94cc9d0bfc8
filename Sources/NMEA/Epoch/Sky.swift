/// Every satellite in view at one epoch, over every constellation and signal: the union of the
/// epoch's ``SatelliteView``s, as gpsd's `SKY` reports it (clients such as cgps and xgps draw
/// each `SKY` as the whole sky, so one view per constellation would show only the last).
public struct Sky: Sendable, Hashable {
    /// The epoch's views, in the order they completed; never empty.
    public var views: [SatelliteView]

    /// The sky of `views`.
    public init(views: [SatelliteView]) { self.views = views }

    /// The UTC time of the epoch; `nil` when none of its views knew it.
    public var time: UTCTime? { views.lazy.compactMap(\.time).first }

    /// How many satellites are listed, over every view (a satellite heard on two signals counts
    /// twice, once per signal, as gpsd lists it).
    public var satelliteCount: Int { views.reduce(0) { $0 + $1.satellites.count } }

    /// How many of them were used in the fix.
    public var usedCount: Int { views.reduce(0) { $0 + $1.usedCount } }
}

/// Gathers satellite views into skies, one per epoch.
///
/// A sky is complete when the epoch's fix comes (``finish()``, called before the fix is
/// reported), or, for a receiver that reports views without fixes, when a view comes that
/// belongs to another epoch: another time, or a talker and signal already in the sky (the
/// receiver has started its next round).
public struct SkyAssembler: Sendable {
    private var pending: [SatelliteView] = []

    /// An assembler with nothing gathered.
    public init() {}

    /// Adds `view`; returns the sky it completed, if it starts another.
    public mutating func add(_ view: SatelliteView) -> Sky? {
        var completed: Sky?
        if let last = pending.last, startsAnother(view, after: last) {
            completed = Sky(views: pending)
            pending.removeAll(keepingCapacity: true)
        }
        pending.append(view)
        return completed
    }

    /// The sky gathered so far, if any, which the epoch's fix completes.
    public mutating func finish() -> Sky? {
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll(keepingCapacity: true) }
        return Sky(views: pending)
    }

    private func startsAnother(_ view: SatelliteView, after last: SatelliteView) -> Bool {
        if let time = view.time, let previous = last.time, time != previous { return true }
        return pending.contains { $0.talker == view.talker && $0.signalID == view.signalID }
    }
}
