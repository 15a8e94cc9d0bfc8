/// What a serial port is, as far as discovery can tell without writing to it.
public enum PortKind: String, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// A known receiver (in the catalogue), or a device that names itself a GPS or GNSS
    /// receiver.
    case gps
    /// A USB-serial bridge that GPS receivers often sit behind: worth listening to.
    case candidate
    /// Anything else: modems, microcontroller boards, consoles.
    case other

    /// `gps` before `candidate` before `other`.
    public static func < (lhs: PortKind, rhs: PortKind) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .gps: 0
        case .candidate: 1
        case .other: 2
        }
    }

    /// `gps`, `candidate` or `other`.
    public var description: String { rawValue }
}
