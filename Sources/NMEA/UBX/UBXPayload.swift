/// A UBX frame's payload, borrowed, with little-endian readers for its fields.
///
/// Each reader takes the field's byte offset, as u-blox's interface descriptions give it, and
/// returns `nil` when the field lies past the end of the payload: a message shorter than its
/// type says costs the fields it lacks, not the message.
public struct UBXPayload {
    @usableFromInline let base: UnsafePointer<UInt8>
    /// The payload's length in bytes.
    public let count: Int

    @inlinable
    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// An unsigned byte (u-blox's U1 and X1).
    @inlinable
    public func u1(_ offset: Int) -> UInt8? { offset >= 0 && offset < count ? base[offset] : nil }

    /// A signed byte (I1).
    @inlinable
    public func i1(_ offset: Int) -> Int8? { u1(offset).map { Int8(bitPattern: $0) } }

    /// An unsigned 16-bit field (U2, X2).
    @inlinable
    public func u2(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= count else { return nil }
        return UInt16(base[offset]) | UInt16(base[offset + 1]) << 8
    }

    /// A signed 16-bit field (I2).
    @inlinable
    public func i2(_ offset: Int) -> Int16? { u2(offset).map { Int16(bitPattern: $0) } }

    /// An unsigned 32-bit field (U4, X4).
    @inlinable
    public func u4(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= count else { return nil }
        return UInt32(base[offset]) | UInt32(base[offset + 1]) << 8 | UInt32(base[offset + 2]) << 16
            | UInt32(base[offset + 3]) << 24
    }

    /// A signed 32-bit field (I4).
    @inlinable
    public func i4(_ offset: Int) -> Int32? { u4(offset).map { Int32(bitPattern: $0) } }

    /// A copy of the payload's bytes.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
