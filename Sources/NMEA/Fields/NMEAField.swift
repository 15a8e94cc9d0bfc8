/// One comma-separated field of a ``RawSentence``, borrowed from the framer's buffer.
public struct NMEAField {
    @usableFromInline let base: UnsafePointer<UInt8>
    /// The field's length in bytes.
    public let count: Int

    @inlinable
    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// `true` when the field has no bytes.
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// The byte at `index`; `index` must be below ``count``.
    @inlinable
    public subscript(index: Int) -> UInt8 { base[index] }

    /// The field as text.
    public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// `true` when the field holds exactly these ASCII bytes.
    @inlinable
    public func equals(_ ascii: StaticString) -> Bool {
        guard ascii.utf8CodeUnitCount == count else { return false }
        let other = ascii.utf8Start
        for index in 0..<count where base[index] != other[index] { return false }
        return true
    }

    @inlinable
    func dropFirst(_ n: Int) -> NMEAField { NMEAField(base: base + n, count: count - n) }

    @inlinable
    func prefix(_ n: Int) -> NMEAField { NMEAField(base: base, count: n) }
}

/// Why a field could not be read.
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the field should have held, such as `a decimal number` or `a time hhmmss`.
    public var expected: String

    /// Creates a field error saying what was expected.
    public init(expected: String) { self.expected = expected }

    /// `expected …`.
    public var description: String { "expected \(expected)" }
}
