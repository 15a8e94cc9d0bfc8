import NMEA

/// A sentence as the shared signals hand it out: an owned copy, unlike the borrowed
/// ``RawSentence`` of the delegate call.
public struct ReceivedSentence: Sendable, Hashable {
    /// The sentence from `$` through the checksum, without the line ending.
    public var text: String
    /// The typed value, for the types the `NMEA` module decodes; `nil` for the others.
    public var decoded: NMEASentence?

    /// Copies `raw` and decodes it (a malformed field is `nil` in the value, and a reject of its own).
    init(_ raw: RawSentence) {
        text = raw.text
        decoded = NMEASentence.decode(raw)
    }
}

/// What a ``GPSMonitor``'s reader says, in the order it said it: see
/// ``GPSMonitor/events(satellites:sentences:rejects:bytes:delivery:dropped:)``.
public enum GPSEvent: Sendable {
    /// A completed epoch.
    indirect case fix(Fix)
    /// A completed satellite view.
    case satellites(SatelliteView)
    /// A checksum-valid sentence, copied.
    case sentence(ReceivedSentence)
    /// Input that was rejected.
    case rejected(RejectedInput)
    /// What one read of the source returned, unchanged, before any of it is decoded: binary
    /// packets, line ends and garbage included (a read may end in the middle of a sentence).
    case bytes([UInt8])

    /// The fix, when this is one.
    public var fix: Fix? { if case .fix(let fix) = self { fix } else { nil } }
    /// The satellite view, when this is one.
    public var satellites: SatelliteView? { if case .satellites(let view) = self { view } else { nil } }
    /// The sentence, when this is one.
    public var sentence: ReceivedSentence? { if case .sentence(let sentence) = self { sentence } else { nil } }
    /// The reject, when this is one.
    public var rejected: RejectedInput? { if case .rejected(let reject) = self { reject } else { nil } }
    /// The bytes read, when this is them.
    public var bytes: [UInt8]? { if case .bytes(let bytes) = self { bytes } else { nil } }
}
