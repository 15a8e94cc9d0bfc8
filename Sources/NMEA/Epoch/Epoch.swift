/// One epoch as gpsd reports it: its sky, then its fix.
///
/// An epoch with a fix has the sky its fix completed (the epoch's views with the fix's
/// dilutions and count of satellites used; `nil` when it had nothing of that to report). An
/// epoch without a fix is the views of a receiver that reports satellites without fixes: a
/// sky and no fix. ``EpochAssembler`` (and so ``NMEADecoder``) hands them out, and gpsd's JSON
/// renderer writes one as its `SKY` then its `TPV`.
public struct Epoch: Sendable {
    /// The sky and fix, in one immutable box: an epoch then travels from the decoder through
    /// every subscriber at the size of a reference, not of a fix, and the assembler can tell
    /// whether anyone kept it.
    private final class Storage: Sendable {
        let sky: Sky?
        let fix: Fix?

        init(sky: Sky?, fix: Fix?) {
            self.sky = sky
            self.fix = fix
        }
    }

    private var storage: Storage

    /// An epoch of `sky` and `fix`.
    public init(sky: Sky?, fix: Fix?) {
        storage = Storage(sky: sky, fix: fix)
    }

    /// The epoch's sky; `nil` when it had no view, no dilution and no count of satellites used.
    public var sky: Sky? {
        get { storage.sky }
        set { storage = Storage(sky: newValue, fix: storage.fix) }
    }

    /// The epoch's fix; `nil` for a sky that no fix completed.
    public var fix: Fix? {
        get { storage.fix }
        set { storage = Storage(sky: storage.sky, fix: newValue) }
    }

    /// The epoch's satellite views, in the order they completed; empty when it had none.
    public var views: [SatelliteView] { storage.sky?.views ?? [] }

    /// Whether this is the only reference to its storage: nobody else kept the epoch.
    mutating func isUnique() -> Bool { isKnownUniquelyReferenced(&storage) }
}
