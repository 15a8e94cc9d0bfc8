/// A framed, checksum-valid NMEA 0183 sentence, borrowed from the framer's buffer.
///
/// A `RawSentence` points into memory that the framer reuses: read it inside the callback that
/// received it. To keep it, copy it with ``text`` or ``bytes``, or decode it into an
/// ``NMEASentence``, which is a plain value.
public struct RawSentence {
    @usableFromInline let base: UnsafePointer<UInt8>
    /// Byte count from the start delimiter up to, not including, the `*` (or the line end).
    @usableFromInline let dataEnd: Int
    /// Total byte count without the line ending, checksum included.
    @usableFromInline let length: Int
    /// Where each field starts, and at `fieldCount` one past `dataEnd` (the start a next field
    /// would have): field `i` ends at `starts[i + 1] - 1`.
    @usableFromInline let starts: UnsafePointer<Int32>
    /// The number of fields, counting the address field (index 0).
    public let fieldCount: Int

    @inlinable
    init(base: UnsafePointer<UInt8>, dataEnd: Int, length: Int, starts: UnsafePointer<Int32>, fieldCount: Int) {
        self.base = base
        self.dataEnd = dataEnd
        self.length = length
        self.starts = starts
        self.fieldCount = fieldCount
    }

    /// Field `index`: 0 is the address (such as `GPGGA`), 1 the first data field.
    /// A field past the end of the sentence reads as empty.
    @inlinable
    public subscript(index: Int) -> NMEAField {
        guard index < fieldCount else { return NMEAField(base: base, count: 0) }
        let start = Int(starts[index])
        let end = Int(starts[index &+ 1]) &- 1
        return NMEAField(base: base + start, count: end - start)
    }

    /// The address field, such as `GPGGA` or `PUBX`.
    @inlinable
    public var address: NMEAField { self[0] }

    /// `true` for proprietary sentences, whose address starts with `P` (`$PUBX`, `$PGRME`).
    @inlinable
    public var isProprietary: Bool { dataEnd > 1 && base[1] == UInt8(ascii: "P") }

    /// `true` for encapsulated sentences, which start with `!` (AIS `!AIVDM`).
    @inlinable
    public var isEncapsulated: Bool { base[0] == UInt8(ascii: "!") }

    /// The talker of a standard sentence (`GP` in `GPGGA`), or `nil` for proprietary and
    /// malformed addresses.
    @inlinable
    public var talker: Talker? {
        let address = self.address
        guard !isProprietary, address.count >= 5 else { return nil }
        return Talker(address[0], address[1])
    }

    /// The three-letter sentence formatter (`GGA` in `GPGGA`), or `nil` for proprietary sentences.
    @inlinable
    public var formatter: SentenceFormatter? {
        let address = self.address
        guard !isProprietary, address.count == 5 else { return nil }
        return SentenceFormatter(address[2], address[3], address[4])
    }

    /// A copy of the sentence's bytes, from `$` through the checksum, without the line ending.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: length)) }

    /// The sentence as text, from `$` through the checksum, without the line ending.
    public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: length), as: UTF8.self) }

    /// Calls `body` with the sentence's bytes (no line ending), without copying them.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: length))
    }
}
