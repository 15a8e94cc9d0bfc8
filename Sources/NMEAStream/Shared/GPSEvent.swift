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

/// What one shared reader connection carries to its subscribers.
enum GPSEvent: Sendable {
    indirect case fix(Fix)
    case satellites(SatelliteView)
    case sentence(ReceivedSentence)
    case rejected(RejectedInput)

    var fix: Fix? { if case .fix(let fix) = self { fix } else { nil } }
    var satellites: SatelliteView? { if case .satellites(let view) = self { view } else { nil } }
    var sentence: ReceivedSentence? { if case .sentence(let sentence) = self { sentence } else { nil } }
    var rejected: RejectedInput? { if case .rejected(let reject) = self { reject } else { nil } }
}
