/// Counts of what went through an ``NMEADecoder``.
public struct NMEAStatistics: Sendable, Hashable {
    /// Bytes fed.
    public var bytes = 0
    /// Fixes delivered.
    public var fixes = 0
    /// Satellite views delivered.
    public var satelliteViews = 0
    /// Rejections by reason. Sentences of a type nothing decodes count under
    /// ``RejectReason/unknownSentenceType`` here, though they are still delivered raw.
    public private(set) var rejects: [RejectReason: Int] = [:]
    /// Bytes rejected, by reason.
    public private(set) var rejectedBytes: [RejectReason: Int] = [:]
    private var sentenceCounts: [UInt64: Int] = [:]

    /// Creates empty statistics.
    public init() {}

    /// Checksum-valid sentences by address (`GPGGA`, `PUBX`…), decoded or not.
    public var sentences: [String: Int] {
        var result: [String: Int] = [:]
        for (key, count) in sentenceCounts { result[Self.address(of: key), default: 0] += count }
        return result
    }

    /// Checksum-valid sentences in all.
    public var sentenceCount: Int { sentenceCounts.values.reduce(0, +) }

    /// Rejections in all.
    public var rejectCount: Int { rejects.values.reduce(0, +) }

    mutating func count(_ reject: RejectedInput) {
        rejects[reject.reason, default: 0] += 1
        rejectedBytes[reject.reason, default: 0] += reject.byteCount
    }

    mutating func countSentence(_ address: NMEAField, length: Int, decoded: Bool) {
        // Up to seven address bytes packed in a word: no string per sentence.
        var key: UInt64 = UInt64(min(address.count, 7))
        for index in 0..<min(address.count, 7) { key |= UInt64(address[index]) << UInt64(8 * (index + 1)) }
        sentenceCounts[key, default: 0] += 1
        if !decoded {
            rejects[.unknownSentenceType, default: 0] += 1
            rejectedBytes[.unknownSentenceType, default: 0] += length
        }
    }

    private static func address(of key: UInt64) -> String {
        let count = Int(key & 0xFF)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: key >> UInt64(8 * ($0 + 1))) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
