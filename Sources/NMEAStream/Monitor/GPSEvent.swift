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
/// ``GPSMonitor/events(satellites:sentences:rejects:bytes:delivery:dropped:)``. The owned,
/// `Sendable` form of what the reader's ``NMEAReader/Event/decoded(_:)`` and
/// ``NMEAReader/Event/read(_:)`` borrow.
public enum GPSEvent: Sendable {
    /// A completed epoch: its sky (the satellite views gathered since the last one, with the
    /// fix's dilutions), then its fix; or a sky alone, from a receiver that reports views
    /// without fixes.
    case epoch(Epoch)
    /// A checksum-valid sentence, copied.
    case sentence(ReceivedSentence)
    /// Input that was rejected.
    case rejected(RejectedInput)
    /// What one read of the source returned, unchanged, before any of it is decoded: binary
    /// packets, line ends and garbage included (a read may end in the middle of a sentence).
    case bytes([UInt8])
    /// An integrity check failed (a monitor created with `integrity`; see ``IntegrityCheck``),
    /// told just before the epoch it concerns, whose fix carries its flag; from a merged monitor
    /// (``GPSMonitor/init(merging:names:name:selection:integrity:scheduler:)``), a member's, or
    /// the members' disagreement.
    case integrity(IntegrityEvent)
    /// A merged monitor changed the receiver it carries: its epochs from here on are that
    /// receiver's.
    case sourceChanged(SourceChange)

    /// The epoch, when this is one.
    public var epoch: Epoch? { if case .epoch(let epoch) = self { epoch } else { nil } }
    /// The epoch's fix, when this is an epoch with one.
    public var fix: Fix? { if case .epoch(let epoch) = self { epoch.fix } else { nil } }
    /// The sentence, when this is one.
    public var sentence: ReceivedSentence? { if case .sentence(let sentence) = self { sentence } else { nil } }
    /// The reject, when this is one.
    public var rejected: RejectedInput? { if case .rejected(let reject) = self { reject } else { nil } }
    /// The integrity event, when this is one.
    public var integrity: IntegrityEvent? { if case .integrity(let event) = self { event } else { nil } }
    /// The bytes read, when this is them.
    public var bytes: [UInt8]? { if case .bytes(let bytes) = self { bytes } else { nil } }
}

/// A merged monitor's change of the receiver it carries.
public struct SourceChange: Sendable, Hashable, CustomStringConvertible {
    /// The receiver carried before, by name; `nil` for the first.
    public var from: String?
    /// The receiver carried from now on, by name.
    public var to: String
    /// Its index among the members, in the order given.
    public var index: Int
    /// Why.
    public var reason: BestFixSelection.SwitchReason

    /// Creates a change.
    public init(from: String?, to: String, index: Int, reason: BestFixSelection.SwitchReason) {
        self.from = from
        self.to = to
        self.index = index
        self.reason = reason
    }

    /// `/dev/ttyUSB1 (the one carried went silent)`.
    public var description: String { "\(to) (\(reason))" }
}
