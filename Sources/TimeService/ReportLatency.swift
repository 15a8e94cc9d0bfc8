import NMEA

/// How late a receiver's reports reach the system: for each fix with a UTC time and an
/// arrival stamp, the arrival of its first byte minus the time it names. Its median is the
/// `offset` to give chrony's refclock line (the serial samples' offsets are minus it), and
/// its spread says how good a clock the serial line makes. Pure: values in, figures out.
public struct ReportLatency: Sendable {
    private var samples: [Double] = []

    /// An empty record.
    public init() {}

    /// Records `fix`, if it has a time and an arrival stamp.
    public mutating func record(_ fix: Fix) {
        guard let time = fix.time, let receivedAt = fix.receivedAt else { return }
        samples.append(receivedAt.seconds(since: time))
    }

    /// The figures so far, in seconds; `nil` with no sample.
    public var summary: Summary? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
        return Summary(count: sorted.count, minimum: sorted[0], median: percentile(0.5), p95: percentile(0.95),
                       maximum: sorted[sorted.count - 1])
    }

    /// The spread of the latency, seconds.
    public struct Summary: Sendable, Equatable {
        /// How many fixes were measured.
        public var count: Int
        /// The least latency.
        public var minimum: Double
        /// The median: chrony's refclock `offset`.
        public var median: Double
        /// The 95th percentile.
        public var p95: Double
        /// The greatest latency.
        public var maximum: Double
    }
}
