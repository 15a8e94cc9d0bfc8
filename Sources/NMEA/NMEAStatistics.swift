/// Counts of what went through an ``NMEADecoder``, as they stood when it was read.
public struct NMEAStatistics: Sendable, Hashable {
    /// Bytes fed.
    public var bytes: Int
    /// Fixes delivered.
    public var fixes: Int
    /// Satellite views delivered.
    public var satelliteViews: Int
    /// Checksum-valid sentences by address (`GPGGA`, `PUBX`…), decoded or not.
    public var sentences: [String: Int]
    /// Rejections by reason. Sentences of a type nothing decodes count under
    /// ``RejectReason/unknownSentenceType`` here, though they are still delivered raw.
    public var rejects: [RejectReason: Int]
    /// Bytes rejected, by reason.
    public var rejectedBytes: [RejectReason: Int]
    /// Checksum-valid UBX frames by class and id, decoded or not.
    public var ubxFrames: [UBXMessageKind: Int]

    /// Creates statistics; by default, nothing counted.
    public init(bytes: Int = 0, fixes: Int = 0, satelliteViews: Int = 0, sentences: [String: Int] = [:],
                rejects: [RejectReason: Int] = [:], rejectedBytes: [RejectReason: Int] = [:],
                ubxFrames: [UBXMessageKind: Int] = [:]) {
        self.bytes = bytes
        self.fixes = fixes
        self.satelliteViews = satelliteViews
        self.sentences = sentences
        self.rejects = rejects
        self.rejectedBytes = rejectedBytes
        self.ubxFrames = ubxFrames
    }

    /// Checksum-valid sentences in all.
    public var sentenceCount: Int { sentences.values.reduce(0, +) }

    /// Checksum-valid UBX frames in all.
    public var ubxFrameCount: Int { ubxFrames.values.reduce(0, +) }

    /// Rejections in all.
    public var rejectCount: Int { rejects.values.reduce(0, +) }
}
