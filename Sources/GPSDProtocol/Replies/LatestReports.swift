import NMEA

/// What `?POLL` reports of one device: its latest fix and sky, kept as gpsd keeps them.
///
/// A receiver that sends GSV only every few epochs gives most epochs a sky of dilutions
/// alone: gpsd keeps its satellites until the next GSV, with the newer dilutions, so the
/// latest sky keeps the last views it had.
public struct LatestReports: Sendable {
    /// The latest fix; `nil` before the first.
    public private(set) var fix: Fix?
    /// The latest sky; `nil` before the first epoch that had one.
    public private(set) var sky: Sky?

    /// Nothing reported yet.
    public init() {}

    /// Takes a completed epoch: its fix, and its sky after the rule above. A sky with no
    /// fix (a receiver that reports views alone) replaces the sky as it is.
    public mutating func take(_ epoch: Epoch) {
        guard let fix = epoch.fix else {
            if let sky = epoch.sky { self.sky = sky }
            return
        }
        self.fix = fix
        if let sky = epoch.sky { self.sky = Self.sky(sky, after: self.sky) }
    }

    /// The sky to keep after `sky`: `sky`, unless it has no views and `previous` had some,
    /// which are kept with `sky`'s dilutions.
    static func sky(_ sky: Sky, after previous: Sky?) -> Sky {
        guard sky.views.isEmpty, var kept = previous, !kept.views.isEmpty else { return sky }
        kept.hdop = sky.hdop
        kept.vdop = sky.vdop
        kept.pdop = sky.pdop
        kept.satellitesUsed = sky.satellitesUsed
        return kept
    }
}
