import NMEA

/// How late a receiver's reports reach the system: for each fix with a UTC time and an
/// arrival stamp, the arrival of its first byte minus the time it names. Its median is the
/// `offset` to give chrony's refclock line (the serial samples' offsets are minus it), and
/// its spread says how good a clock the serial line makes. Pure: values in, figures out.
///
/// Its memory does not grow with running time: the count, minimum and maximum are exact, and
/// the median and 95th percentile come from a uniform random sample of at most
/// ``sampleCapacity`` latencies (reservoir sampling, with a fixed seed so that a run is
/// repeatable): exact up to that many fixes, then within about a percentile of the truth.
public struct ReportLatency: Sendable {
    /// The most latencies kept: 4,096 (32 KiB), 7 minutes of a 10 Hz receiver kept whole.
    public static let sampleCapacity = 4096

    private var sample: [Double] = []
    private var count = 0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    private var random = SeededGenerator(seed: 0x6E6D_6561_7374_7265)

    /// An empty record.
    public init() {}

    /// Records `fix`, if it has a time and an arrival stamp.
    public mutating func record(_ fix: Fix) {
        guard let time = fix.time, let receivedAt = fix.receivedAt else { return }
        record(latency: receivedAt.seconds(since: time))
    }

    /// Records one latency, seconds (a value that is not finite is left out).
    public mutating func record(latency: Double) {
        guard latency.isFinite else { return }
        count += 1
        minimum = min(minimum, latency)
        maximum = max(maximum, latency)
        if sample.count < Self.sampleCapacity {
            sample.append(latency)
        } else {
            // Algorithm R: the latest replaces a kept one with probability capacity / count.
            let slot = Int(random.next() % UInt64(count))
            if slot < Self.sampleCapacity { sample[slot] = latency }
        }
    }

    /// The figures so far, in seconds; `nil` with no sample.
    public var summary: Summary? {
        guard count > 0 else { return nil }
        let sorted = sample.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
        return Summary(count: count, minimum: minimum, median: percentile(0.5), p95: percentile(0.95), maximum: maximum)
    }

    /// How many latencies are kept for the percentiles (at most ``sampleCapacity``).
    public var keptSamples: Int { sample.count }

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
