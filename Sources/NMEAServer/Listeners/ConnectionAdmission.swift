/// Who gets a connection, listener by listener: the server's limit (``GPSDServer/connectionLimit``)
/// is shared, but the live page and the NMEA feed may each hold at most a quarter of it, so
/// that a flood of idle connections to one of them (a LAN's worth of chart plotters, or an
/// attacker) cannot lock gpsd's clients out: they always have half the limit to themselves.
/// Pure: counts in, decisions out; the server holds it under its registry's lock.
struct ConnectionAdmission: Sendable, Equatable {
    /// The most connections at once, every listener's together.
    var limit: Int
    private(set) var total = 0
    private var open: [GPSDServer.ListenError.Listener: Int] = [:]

    init(limit: Int) { self.limit = limit }

    /// The most connections `listener` may hold: the whole limit for gpsd's port, a quarter
    /// (at least one) for the others.
    func share(of listener: GPSDServer.ListenError.Listener) -> Int {
        listener == .gpsd ? limit : max(1, limit / 4)
    }

    /// How many connections `listener` holds now.
    func count(_ listener: GPSDServer.ListenError.Listener) -> Int { open[listener, default: 0] }

    /// Counts a connection to `listener` and returns true, unless the limit or the listener's
    /// share is reached.
    mutating func admit(_ listener: GPSDServer.ListenError.Listener) -> Bool {
        guard total < limit, count(listener) < share(of: listener) else { return false }
        open[listener, default: 0] += 1
        total += 1
        return true
    }

    /// A connection `admit` counted has closed.
    mutating func release(_ listener: GPSDServer.ListenError.Listener) {
        guard count(listener) > 0 else { return }
        open[listener, default: 0] -= 1
        total -= 1
    }
}
