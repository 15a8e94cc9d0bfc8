extension GPSDServer {
    /// Connections refused or let go, by reason (``refusals``).
    public struct Refusals: Sendable, Equatable {
        /// Refused at connect: past ``connectionLimit`` (gpsd clients get `Too many clients`).
        public var tooManyClients = 0
        /// Accepting failed (out of descriptors or memory); accepting pauses briefly after each.
        public var acceptFailures = 0
        /// Let go for completing no request in time (gpsd's port: watching nothing; the page:
        /// a request not sent whole in time).
        public var timedOut = 0
        /// Let go for not reading their reports (``Configuration/slowClientTimeout``).
        public var slowClients = 0

        /// All of them.
        public var total: Int { tooManyClients + acceptFailures + timedOut + slowClients }
    }

    /// Counts a connection refused or let go.
    func countRefusal(_ reason: WritableKeyPath<Refusals, Int> & Sendable) {
        registry.withLock { $0.refusals[keyPath: reason] += 1 }
    }

    /// Connections refused or let go so far, by reason.
    public var refusals: Refusals { registry.withLock { $0.refusals } }
}
