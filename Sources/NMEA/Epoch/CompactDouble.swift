/// A `Double?` in the eight bytes of a `Double`, NaN standing for `nil`: an optional double
/// takes sixteen (a byte for the case, padded to the double's alignment), and a fix, which has
/// some forty of them with its error estimates, is copied whole at least once per epoch. A
/// NaN stored is read back as `nil`: no receiver sends one, and a value worked out to NaN is
/// no value.
///
/// It compares and hashes as the `Double?` it holds. A property declared with it and no initial
/// value takes the wrapper in a memberwise initializer; `= nil` makes it take the `Double?`. The
/// decode benchmarks guard what it saves (see `Benchmarks/README.md`).
@propertyWrapper
public struct CompactDouble: Sendable, Hashable {
    @usableFromInline var storage: Double

    /// `nil`.
    @inlinable public init() { storage = .nan }

    /// `value`, or `nil` when it is NaN.
    @inlinable public init(wrappedValue value: Double?) { storage = value ?? .nan }

    /// The value; `nil` when none was stored, or NaN was.
    @inlinable public var wrappedValue: Double? {
        get { storage.isNaN ? nil : storage }
        set { storage = newValue ?? .nan }
    }

    /// The field itself (`$name`): a value copied from one compact field to another as it is,
    /// with no test for `nil` on the way.
    @inlinable public var projectedValue: CompactDouble {
        get { self }
        set { self = newValue }
    }

    /// Holds `storage` as it is: NaN is `nil`.
    @inlinable init(storing storage: Double) { self.storage = storage }

    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue == rhs.wrappedValue }

    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}
