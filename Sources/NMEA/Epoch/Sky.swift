/// Every satellite in view at one epoch, over every constellation and signal (the union of the
/// epoch's ``SatelliteView``s), and the epoch's dilutions of precision: what gpsd's `SKY`
/// reports (clients such as cgps and xgps draw each `SKY` as the whole sky, so one view per
/// constellation would show only the last).
///
/// A sky with no views is an epoch whose receiver said nothing of the satellites in view (no
/// GSV, as many send only GGA and GSA, or GSV every few epochs) but gave its dilutions or the
/// count of satellites used: gpsd reports those in a `SKY` of their own, and clients take its
/// dilutions while keeping the satellites they have.
public struct Sky: Sendable, Hashable {
    /// The epoch's views, in the order they completed; empty for an epoch that had none.
    public var views: [SatelliteView]
    /// The UTC time of the epoch: its views' (the first that knew it), else its fix's; `nil`
    /// when neither knew it.
    public var time: UTCTime?
    /// Horizontal dilution of precision, from the epoch's fix (``Fix/hdop``); `nil` when the
    /// receiver did not report it.
    @CompactDouble public var hdop: Double?
    /// Vertical dilution of precision (GSA); `nil` when not reported.
    @CompactDouble public var vdop: Double?
    /// Position (3D) dilution of precision (GSA); `nil` when not reported.
    @CompactDouble public var pdop: Double?
    /// How many satellites the epoch's fix used, as the receiver counted them (GGA, GNS, or the
    /// GSA list); `nil` when it did not say.
    public var satellitesUsed: Int?
    /// The receiver's east, north, vertical and time dilutions (UBX's NAV-DOP, ``Fix/dilutions``);
    /// `nil` when it gave none (the views' ``geometry`` then gives them).
    public var dilutions: Dilutions?

    /// The sky of `views`, with no dilutions.
    public init(views: [SatelliteView]) {
        self.views = views
        time = views.lazy.compactMap(\.time).first
    }

    /// How many satellites are listed, over every view (a satellite heard on two signals counts
    /// twice, once per signal, as gpsd lists it).
    public var satelliteCount: Int { views.reduce(0) { $0 + $1.satellites.count } }

    /// How many of the listed satellites were used in the fix.
    public var usedCount: Int { views.reduce(0) { $0 + $1.usedCount } }

    /// Whether it has nothing to report: no view, no dilution, and no satellite used (a count
    /// of 0, as a receiver with no fix reports, says nothing either, as gpsd takes it).
    public var isEmpty: Bool {
        views.isEmpty && hdop == nil && vdop == nil && pdop == nil && dilutions == nil && (satellitesUsed ?? 0) == 0
    }

    /// Completes the sky with `fix`'s dilutions, count of satellites used and, when its views
    /// had none, time.
    mutating func complete(by fix: borrowing Fix) {
        complete(by: Completion(fix))
    }

    mutating func complete(by fix: Completion) {
        if time == nil { time = fix.time }
        hdop = fix.hdop
        vdop = fix.vdop
        pdop = fix.pdop
        satellitesUsed = fix.satellitesUsed
        dilutions = fix.dilutions.dilutions
    }

    /// What a sky takes from its fix: read field by field, so that a fix stored in a class (an
    /// epoch's box) is not copied whole to be borrowed.
    struct Completion {
        var time: UTCTime?
        @CompactDouble var hdop: Double?
        @CompactDouble var vdop: Double?
        @CompactDouble var pdop: Double?
        var satellitesUsed: Int?
        var dilutions: PackedDilutions

        init(_ fix: borrowing Fix) {
            time = fix.time
            hdop = fix.hdop
            vdop = fix.vdop
            pdop = fix.pdop
            satellitesUsed = fix.satellitesUsed
            dilutions = fix.packedDilutions
        }

        /// Whether it gives a sky with no views anything to report (see ``Sky/isEmpty``).
        var isEmpty: Bool {
            hdop == nil && vdop == nil && pdop == nil && dilutions == PackedDilutions(nil) && (satellitesUsed ?? 0) == 0
        }
    }
}

/// Gathers satellite views into skies, one per epoch.
///
/// A sky is complete when the epoch's fix comes (``finish(with:)``, called before the fix is
/// reported, which also gives it the fix's dilutions), or, for a receiver that reports views
/// without fixes, when a view comes that belongs to another epoch: another time, or a talker
/// and signal already in the sky (the receiver has started its next round).
///
/// It also keeps the views of the last sky handed out that nobody kept (``recycle(_:)``): the
/// next views are built in their satellites arrays, and the next sky in one of the two arrays
/// of views that take turns, so a receiver that keeps no sky costs no allocation per view or
/// per sky.
public struct SkyAssembler: Sendable {
    private var pending: [SatelliteView] = []
    /// The views of the last sky handed back, whose satellites arrays are built into again.
    private var returned: [SatelliteView] = []
    /// How many views the last sky had.
    private var lastViewCount = 0
    /// Whether the last sky handed out was kept by its receiver.
    private var isKept = false

    /// An assembler with nothing gathered.
    public init() {}

    /// Adds `view`; returns the sky it completed, if it starts another. A GSV view in a sky
    /// that a UBX message gave is left out: UBX's satellites are the epoch's.
    public mutating func add(_ view: SatelliteView) -> Sky? {
        var completed: Sky?
        if let last = pending.last, startsAnother(view, after: last) {
            completed = finish()
        }
        if pending.first?.ubxSource != nil { return completed }
        // A fresh array (the last sky was kept) has room for as many views as the last sky at
        // once, not after a growth per doubling.
        if pending.capacity == 0 { pending.reserveCapacity(max(lastViewCount, 4)) }
        pending.append(view)
        return completed
    }

    /// The views gathered so far, if any, as a sky (at the end of the input, where no fix
    /// will come).
    public mutating func finish() -> Sky? {
        guard !pending.isEmpty else { return nil }
        var views: [SatelliteView] = []
        swap(&views, &pending)
        lastViewCount = views.count
        return Sky(views: views)
    }

    /// Takes back the views of a sky handed out that nobody kept.
    mutating func recycle(_ views: consuming [SatelliteView]) {
        isKept = false
        // The array the views before them were taken from gathers the next sky.
        if pending.isEmpty, pending.capacity < returned.capacity {
            returned.removeAll(keepingCapacity: true)
            swap(&pending, &returned)
        }
        returned = views
    }

    /// The satellites array of a view handed back, to build the next view in; empty (with no
    /// storage) when none is left.
    mutating func spareSatellites() -> [Satellite] {
        returned.popLast()?.satellites ?? []
    }

    /// Notes that the last sky handed out was kept by its receiver (nothing comes back).
    mutating func lastSkyKept() { isKept = true }

    /// The room to give a view's satellites array for `count` satellites. While skies come
    /// back, room for the common groups at once, so that a recycled array serves any of them;
    /// while they are kept, room for `count` exactly, so that a kept view takes no more memory
    /// than it holds.
    func satelliteCapacity(for count: Int) -> Int { isKept ? count : max(count, 32) }

    /// The epoch's sky, which its fix completes: the views gathered so far (none when the
    /// receiver sent no GSV this epoch) with the fix's dilutions and count of satellites used;
    /// `nil` when there is nothing of that to report.
    public mutating func finish(with fix: borrowing Fix) -> Sky? {
        finish(with: Sky.Completion(fix))
    }

    mutating func finish(with fix: Sky.Completion) -> Sky? {
        // Most epochs of most receivers have no views: no sky to build when no dilution came.
        if pending.isEmpty, fix.isEmpty { return nil }
        var sky = finish() ?? Sky(views: [])
        sky.complete(by: fix)
        return sky
    }

    /// Adds a view a UBX message made (``UBXSatelliteSource``); returns the sky it completed, if
    /// it starts another (a second message of its kind). It takes the place of the epoch's GSV
    /// views; NAV-SIG's signals and NAV-SAT's (or NAV-SVINFO's) satellites of one epoch make one
    /// view (see ``UBXSatelliteSource/merge(_:_:)``).
    mutating func addUBX(_ view: SatelliteView) -> Sky? {
        guard let source = view.ubxSource else { return add(view) }
        var completed: Sky?
        if pending.contains(where: { $0.ubxSource == source || $0.ubxSource == .merged }) {
            completed = finish()
        }
        pending.removeAll { $0.ubxSource == nil }
        if let index = pending.firstIndex(where: { $0.ubxSource != nil }) {
            pending[index] = UBXSatelliteSource.merge(pending[index], view)
        } else {
            pending.append(view)
        }
        return completed
    }

    private func startsAnother(_ view: SatelliteView, after last: SatelliteView) -> Bool {
        if let time = view.time, let previous = last.time, time != previous { return true }
        return pending.contains { $0.talker == view.talker && $0.signalID == view.signalID }
    }
}
