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
    public var rejects: [RejectReason: Int] {
        var result = otherRejects
        if unknownSentences > 0 { result[.unknownSentenceType, default: 0] += unknownSentences }
        return result
    }
    /// Bytes rejected, by reason.
    public var rejectedBytes: [RejectReason: Int] {
        var result = otherRejectedBytes
        if unknownSentences > 0 { result[.unknownSentenceType, default: 0] += unknownBytes }
        return result
    }
    private var otherRejects: [RejectReason: Int] = [:]
    private var otherRejectedBytes: [RejectReason: Int] = [:]
    private var unknownSentences = 0
    private var unknownBytes = 0
    // Sentence counts by packed address: a short list searched linearly (a receiver sends a
    // dozen types or so), then a dictionary for the rare stream with many more.
    private var frequentKeys: [UInt64] = []
    private var frequentCounts: [Int] = []
    private var otherCounts: [UInt64: Int] = [:]
    /// Receivers repeat their sentences in the same order, so the entry after the last one hit
    /// is tried first.
    private var lastHit = 0

    /// Creates empty statistics.
    public init() {}

    /// Checksum-valid sentences by address (`GPGGA`, `PUBX`…), decoded or not.
    public var sentences: [String: Int] {
        var result: [String: Int] = [:]
        for (key, count) in zip(frequentKeys, frequentCounts) { result[Self.address(of: key), default: 0] += count }
        for (key, count) in otherCounts { result[Self.address(of: key), default: 0] += count }
        return result
    }

    /// Checksum-valid sentences in all.
    public var sentenceCount: Int { frequentCounts.reduce(0, +) + otherCounts.values.reduce(0, +) }

    /// Rejections in all.
    public var rejectCount: Int { otherRejects.values.reduce(0, +) + unknownSentences }

    mutating func count(_ reject: RejectedInput) {
        otherRejects[reject.reason, default: 0] += 1
        otherRejectedBytes[reject.reason, default: 0] += reject.byteCount
    }

    mutating func countSentence(_ address: NMEAField, length: Int, decoded: Bool) {
        // Up to seven address bytes packed in a word: no string per sentence.
        let length = min(address.count, 7)
        var key = UInt64(length)
        for index in 0..<length { key |= UInt64(address[index]) &<< UInt64(8 &* (index &+ 1)) }
        let next = lastHit + 1 < frequentKeys.count ? lastHit + 1 : 0
        if next < frequentKeys.count, frequentKeys[next] == key {
            frequentCounts[next] += 1
            lastHit = next
        } else if let index = frequentKeys.firstIndex(of: key) {
            frequentCounts[index] += 1
            lastHit = index
        } else if frequentKeys.count < 32 {
            frequentKeys.append(key)
            frequentCounts.append(1)
            lastHit = frequentKeys.count - 1
        } else {
            otherCounts[key, default: 0] += 1
        }
        if !decoded {
            unknownSentences += 1
            unknownBytes += length
        }
    }

    private static func address(of key: UInt64) -> String {
        let count = Int(key & 0xFF)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: key >> UInt64(8 * ($0 + 1))) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
