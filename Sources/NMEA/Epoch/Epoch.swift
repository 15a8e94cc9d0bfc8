/// One epoch as gpsd reports it: its sky, then its fix.
///
/// An epoch with a fix has the sky its fix completed (the epoch's views with the fix's
/// dilutions and count of satellites used; `nil` when it had nothing of that to report). An
/// epoch without a fix is the views of a receiver that reports satellites without fixes: a
/// sky and no fix. ``EpochAssembler`` (and so ``NMEADecoder``) hands them out, and gpsd's JSON
/// renderer writes one as its `SKY` then its `TPV`.
public struct Epoch: Sendable {
    /// The sky and fix, in one box: an epoch then travels from the decoder through every
    /// subscriber at the size of a reference, not of a fix, and the assembler can tell whether
    /// anyone kept it.
    ///
    /// Copy on write, as an array's buffer: the box is written only by ``EpochAssembler``,
    /// through ``uniqueStorage()``, while it holds the only reference, so a box that has been
    /// shared is never written again. That is why it can be `Sendable` with `var` fields. The
    /// assembler builds each epoch into the box of the last one when nobody kept it: no
    /// allocation and no copy of the fix per epoch (the decode benchmark guards this).
    final class Storage: @unchecked Sendable {
        // Written only by the box's one holder (see above): the run-time exclusivity check per
        // access (about 1% of decoding) guards nothing.
        @exclusivity(unchecked) var sky: Sky?
        /// The fix, when `hasFix`. Not optional so that the assembler writes it in place: through
        /// an optional, each access copied the whole fix.
        @exclusivity(unchecked) var fix: Fix
        @exclusivity(unchecked) var hasFix: Bool

        init(sky: Sky?, fix: Fix?) {
            self.sky = sky
            self.fix = fix ?? Fix()
            hasFix = fix != nil
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
        set { storage = Storage(sky: newValue, fix: fix) }
    }

    /// The epoch's fix; `nil` for a sky that no fix completed.
    public var fix: Fix? {
        get { storage.hasFix ? storage.fix : nil }
        set { storage = Storage(sky: storage.sky, fix: newValue) }
    }

    /// Whether the epoch has a fix: ``fix`` is not `nil` (asked without copying the fix out).
    public var hasFix: Bool { storage.hasFix }

    /// Calls `body` with the epoch's fix, read in place in the epoch's box rather than copied
    /// out of it as ``fix`` is (a fix is a few hundred bytes); returns `nil`, without calling
    /// `body`, for a sky that no fix completed.
    public func withFix<Result>(_ body: (Fix) throws -> Result) rethrows -> Result? {
        storage.hasFix ? try body(storage.fix) : nil
    }

    /// The epoch's satellite views, in the order they completed; empty when it had none.
    public var views: [SatelliteView] { storage.sky?.views ?? [] }

    /// Whether this is the only reference to its storage: nobody else kept the epoch.
    mutating func isUnique() -> Bool { isKnownUniquelyReferenced(&storage) }

    /// The box, to write the sky and fix in place; the caller has checked ``isUnique()`` (or made
    /// the epoch itself and shared it with nobody), and shares it with nobody until it is done.
    mutating func uniqueStorage() -> Storage {
        assert(isKnownUniquelyReferenced(&storage), "an epoch's box written while shared")
        return storage
    }
}
