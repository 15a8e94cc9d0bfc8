import Dispatch

/// A kind of source as a type of its own: how a reader opens its bytes, and whether they come
/// live. A new kind is a new type conforming to this, read as ``GPSSource/kind(_:)``; the
/// reader, the monitor and the server take it as it is, with nothing else to change.
public protocol GPSSourceKind: Sendable, Hashable, CustomStringConvertible {
    /// Whether its bytes come live, as a receiver sends them: stamped with the time they were
    /// read (each fix then knows when its first byte came), and the source does not end by
    /// itself (a monitor tries it again). A recording's are neither.
    var isLive: Bool { get }

    /// Its bytes, for one opening (a reader makes one each time it starts).
    func makeByteSource() -> any ByteSource
}

/// A source of some ``GPSSourceKind``, as ``GPSSource/kind(_:)`` carries it: equal when the
/// kinds are of one type and equal.
public struct AnyGPSSourceKind: Sendable, Hashable, CustomStringConvertible {
    /// The kind.
    public let base: any GPSSourceKind

    /// Wraps `kind`.
    public init(_ kind: some GPSSourceKind) { base = kind }

    public static func == (lhs: Self, rhs: Self) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(base)) }
    /// The kind's description: what it reads.
    public var description: String { base.description }
}

extension GPSSource {
    /// A source of `kind`.
    public static func kind(_ kind: some GPSSourceKind) -> GPSSource { .custom(AnyGPSSourceKind(kind)) }
}
