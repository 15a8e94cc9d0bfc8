/// Why a run of input bytes did not become a decoded sentence.
public enum RejectReason: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The `*hh` checksum does not match the sentence's bytes.
    case badChecksum
    /// The sentence has no `*hh` checksum.
    case missingChecksum
    /// The sentence grew past the framer's maximum length before its line ended.
    case tooLong
    /// A byte outside printable ASCII appeared inside a sentence.
    case nonPrintable
    /// A field could not be read as what the sentence type says it holds. The field is
    /// dropped; its sentence is still decoded and used (see ``MalformedField``). Also a
    /// sentence whose address is not letters and digits, which is rejected whole.
    case malformedField
    /// The checksum is right but nothing decodes this sentence type (it is still delivered raw).
    case unknownSentenceType
    /// Bytes between sentences that belong to no sentence (binary protocols, line noise).
    case bytesSkipped
    /// A multi-part GSV group ended with parts missing or inconsistent, and was dropped.
    case incompleteSatelliteView

    /// A short, stable name for statistics and logs, such as `bad-checksum`.
    public var description: String {
        switch self {
        case .badChecksum: "bad-checksum"
        case .missingChecksum: "missing-checksum"
        case .tooLong: "too-long"
        case .nonPrintable: "non-printable"
        case .malformedField: "malformed-field"
        case .unknownSentenceType: "unknown-sentence-type"
        case .bytesSkipped: "bytes-skipped"
        case .incompleteSatelliteView: "incomplete-satellite-view"
        }
    }
}

/// Input that was rejected, with the reason and enough of the bytes to see why.
public struct RejectedInput: Sendable, Hashable, CustomStringConvertible {
    /// Why the input was rejected.
    public var reason: RejectReason
    /// How many bytes of input the rejection covers. For a malformed field, the field's bytes,
    /// which its sentence also counts.
    public var byteCount: Int
    /// The rejected bytes, or their first ``NMEAFramer/Configuration/maximumSentenceLength`` bytes
    /// when the run was longer. For a malformed field, the whole sentence it is in.
    public var bytes: [UInt8]
    /// The sentence's address field (such as `GPGGA`), or `nil` when no sentence could be framed.
    public var address: String?
    /// For ``RejectReason/malformedField``: the index of the offending field (1 is the first field
    /// after the address), or `nil` when the reason concerns no single field.
    public var fieldIndex: Int?
    /// What was wrong with the field, or `nil` when the reason says it all.
    public var detail: String?

    /// Creates a rejection record.
    public init(
        reason: RejectReason, byteCount: Int, bytes: [UInt8],
        address: String? = nil, fieldIndex: Int? = nil, detail: String? = nil
    ) {
        self.reason = reason
        self.byteCount = byteCount
        self.bytes = bytes
        self.address = address
        self.fieldIndex = fieldIndex
        self.detail = detail
    }

    /// One line for a human: the reason, the sentence and field when known, and the bytes.
    public var description: String {
        var text = reason.description
        if let address { text += " \(address)" }
        if let fieldIndex { text += " field \(fieldIndex)" }
        if let detail { text += " (\(detail))" }
        text += ": " + String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
        return text
    }
}
