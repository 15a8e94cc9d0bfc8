/// One epoch as gpsd reports it: its sky, then its fix.
///
/// An epoch with a fix has the sky its fix completed (the epoch's views with the fix's
/// dilutions and count of satellites used; `nil` when it had nothing of that to report). An
/// epoch without a fix is the views of a receiver that reports satellites without fixes: a
/// sky and no fix. ``EpochAssembler`` (and so ``NMEADecoder``) hands them out, and gpsd's JSON
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

    /// The epoch's satellite views, in the order they completed; empty when it had none.
    public var views: [SatelliteView] { sky?.views ?? [] }
}
