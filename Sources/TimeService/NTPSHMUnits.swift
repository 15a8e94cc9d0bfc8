import Platform

/// Which NTP shared-memory units a process's receivers use, handed out as gpsd does: each
/// receiver takes the first free unit for its serial time and the next free one for its pulse,
/// so the first receiver has `NTP0` and `NTP1`, the second `NTP2` and `NTP3`. A process that
/// is not root starts at unit 2 (units 0 and 1 are root's, owner-only: gpsd's rule, which
/// ntpd's configurations expect). A receiver that goes gives its units back for the next.
public final class NTPSHMUnits: Sendable {
    /// The first unit handed out.
    public let first: Int
    /// How many units there are to hand out.
    public let count: Int
    private let used = Protected(Set<Int>())

    /// Units from 0 for root, else from 2 (or from `first` when given), `count` of them
    /// (gpsd's 12 by default: six receivers).
    public init(first: Int? = nil, count: Int = 12) {
        self.first = first ?? (Syscall.userID == 0 ? 0 : 2)
        self.count = count
    }

    /// The first free unit, now taken; `nil` when all are.
    func take() -> Int? {
        used.withLock { used in
            guard let unit = (first..<(first + count)).first(where: { !used.contains($0) }) else { return nil }
            used.insert(unit)
            return unit
        }
    }

    /// Gives `unit` back.
    func give(_ unit: Int) {
        _ = used.withLock { $0.remove(unit) }
    }
}
