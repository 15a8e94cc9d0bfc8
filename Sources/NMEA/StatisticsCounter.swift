/// The decoder's counters, kept where the decoder can reach them on every sentence with no
/// allocation; ``snapshot`` makes the plain ``NMEAStatistics`` that callers read.
struct StatisticsCounter: Sendable {
    var bytes = 0
    var fixes = 0
    var satelliteViews = 0

    /// What has been counted, as a plain value.
    func snapshot() -> NMEAStatistics {
        NMEAStatistics(bytes: bytes, fixes: fixes, satelliteViews: satelliteViews, sentences: sentences,
                       rejects: rejects, rejectedBytes: rejectedBytes, ubxFrames: ubxFrames)
    }

    /// UBX frames by kind: few kinds, at a receiver's rate, so a plain dictionary.
    private var ubxFrames: [UBXMessageKind: Int] = [:]

    mutating func countFrame(_ kind: UBXMessageKind) {
        ubxFrames[kind, default: 0] += 1
    }

    private var rejects: [RejectReason: Int] {
        var result = otherRejects
        if unknownSentences > 0 { result[.unknownSentenceType, default: 0] += unknownSentences }
        return result
    }
    private var rejectedBytes: [RejectReason: Int] {
        var result = otherRejectedBytes
        if unknownSentences > 0 { result[.unknownSentenceType, default: 0] += unknownBytes }
        return result
    }
    private var otherRejects: [RejectReason: Int] = [:]
    private var otherRejectedBytes: [RejectReason: Int] = [:]
    private var unknownSentences = 0
    private var unknownBytes = 0
    // Sentence counts by packed address, in a small open-addressing table stored inline (no
    // allocation, no copy-on-write check per sentence), then a dictionary for the rare stream
    // with more types than the table takes.
    private static let tableLimit = 96  // of 256 slots: probes stay short
    private var tableKeys = InlineArray<256, UInt64>(repeating: 0)
    private var tableCounts = InlineArray<256, Int>(repeating: 0)
    private var tableCount = 0
    private var otherCounts: [UInt64: Int] = [:]

    private var sentences: [String: Int] {
        var result: [String: Int] = [:]
        for slot in tableKeys.indices where tableKeys[slot] != 0 {
            result[Self.address(of: tableKeys[slot]), default: 0] += tableCounts[slot]
        }
        for (key, count) in otherCounts { result[Self.address(of: key), default: 0] += count }
        return result
    }

    mutating func count(_ reject: RejectedInput) {
        otherRejects[reject.reason, default: 0] += 1
        otherRejectedBytes[reject.reason, default: 0] += reject.byteCount
    }

    @inline(__always)
    mutating func countSentence(_ address: NMEAField, length: Int, decoded: Bool) {
        let key = Self.key(address, sentenceLength: length)
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56)
        while true {
            let stored = tableKeys[slot]
            if stored == key {
                tableCounts[slot] &+= 1
                break
            }
            if stored == 0 {
                countNew(key, slot: slot)
                break
            }
            slot = (slot &+ 1) & (tableKeys.count &- 1)
        }
        if !decoded {
            unknownSentences += 1
            unknownBytes += length
        }
    }

    /// Up to seven address bytes and their count packed in a word: no string per sentence.
    @inline(__always)
    private static func key(_ address: NMEAField, sentenceLength: Int) -> UInt64 {
        let length = min(address.count, 7)
        // The address starts one byte into the sentence: with nine bytes or more, one word
        // read stays inside it.
        if sentenceLength >= 9 {
            let word = UInt64(littleEndian: UnsafeRawPointer(address.base).loadUnaligned(as: UInt64.self))
            let mask: UInt64 = length == 0 ? 0 : .max >> UInt64(64 - 8 * length)
            return (word & mask) << 8 | UInt64(length)
        }
        var key = UInt64(length)
        for index in 0..<length { key |= UInt64(address[index]) &<< UInt64(8 &* (index &+ 1)) }
        return key
    }

    private mutating func countNew(_ key: UInt64, slot: Int) {
        if tableCount < Self.tableLimit {
            tableKeys[slot] = key
            tableCounts[slot] = 1
            tableCount += 1
        } else {
            otherCounts[key, default: 0] += 1
        }
    }

    private static func address(of key: UInt64) -> String {
        let count = Int(key & 0xFF)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: key >> UInt64(8 * ($0 + 1))) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
