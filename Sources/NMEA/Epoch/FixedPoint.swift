/// A decimal kept in a fixed-width integer, as a count of `1 / unitsPerOne`, with one integer
/// (`none`) standing for `nil`: what only UBX gives (accuracies, ECEF, dilutions, residuals)
/// then costs every fix, which is copied at least once per epoch, a few bytes. A value the
/// integer cannot hold (too large, NaN) is `none`; one that rounds to `none` itself is kept a
/// unit nearer zero.
enum FixedPoint {
    static func pack<Storage: FixedWidthInteger>(_ value: Double?, _ unitsPerOne: Double, none: Storage) -> Storage {
        guard let value, let units = Storage(exactly: (value * unitsPerOne).rounded()) else { return none }
        guard units == none else { return units }
        return none == .max ? none - 1 : none + 1
    }

    // Division by the power of ten gives the decimal's nearest double, as the decoders do.
    static func unpack<Storage: FixedWidthInteger>(_ stored: Storage, _ unitsPerOne: Double, none: Storage) -> Double? {
        stored == none ? nil : Double(stored) / unitsPerOne
    }
}
