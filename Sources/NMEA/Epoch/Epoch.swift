/// One epoch as gpsd reports it: its sky, then its fix.
///
/// An epoch with a fix has the sky its fix completed (the epoch's views with the fix's
/// dilutions and count of satellites used; `nil` when it had nothing of that to report). An
/// epoch without a fix is the views of a receiver that reports satellites without fixes: a
/// sky and no fix. ``EpochGatherer`` makes them from what a decoder hands out, and gpsd's JSON
/// renderer writes one as its `SKY` then its `TPV`.
public struct Epoch: Sendable {
    /// The epoch's sky; `nil` when it had no view, no dilution and no count of satellites used.
    public var sky: Sky?
    /// The epoch's fix; `nil` for a sky that no fix completed.
    public var fix: Fix?

    /// An epoch of `sky` and `fix`.
    public init(sky: Sky?, fix: Fix?) {
        self.sky = sky
        self.fix = fix
    }
}

/// Gathers a decoder's satellite views and fixes into ``Epoch``s: the rule "the epoch's sky,
/// completed by its fix, then its fix", written once for every sink that reports epochs.
public struct EpochGatherer: Sendable {
    private var skies = SkyAssembler()

    /// A gatherer with nothing gathered.
    public init() {}

    /// Adds a completed satellite view; returns the epoch of views alone it ended, when it
    /// starts another epoch's sky (a receiver that reports views without fixes).
    public mutating func add(_ view: SatelliteView) -> Epoch? {
        skies.add(view).map { Epoch(sky: $0, fix: nil) }
    }

    /// Adds a completed fix: its epoch, with the views gathered since the last one.
    public mutating func add(_ fix: Fix) -> Epoch {
        Epoch(sky: skies.finish(with: fix), fix: fix)
    }

    /// At the end of the input: the views no fix completed, as an epoch of their own.
    public mutating func finish() -> Epoch? {
        skies.finish().map { Epoch(sky: $0, fix: nil) }
    }
}
