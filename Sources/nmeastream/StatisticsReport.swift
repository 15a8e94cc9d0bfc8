import NMEAStream
import TimeService

/// The `--stats` report on standard error.
enum StatisticsReport {
    /// How far a receiver's time may be from the system clock for the difference to be a
    /// report's delay (seconds): a serial line delays a report by a second at most.
    static let liveClockBound = 60.0

    /// `seconds`: how long the live command read, for the fix rate; `nil` for a replay.
    /// `latency`: how late the receiver's reports arrived, for a live reading.
    static func print(_ statistics: NMEAStatistics, seconds: Double? = nil, latency: ReportLatency.Summary? = nil) {
        var lines = ["bytes \(statistics.bytes)", "sentences \(statistics.sentenceCount)",
                     "fixes \(statistics.fixes)", "satellite-views \(statistics.satelliteViews)"]
        if let seconds, seconds > 0 {
            lines.append("seconds \(fixedPoint(seconds, decimals: 1))")
            lines.append("fix-rate \(fixedPoint(Double(statistics.fixes) / seconds, decimals: 2)) per second")
        }
        for (address, count) in statistics.sentences.sorted(by: { $0.key < $1.key }) {
            lines.append("sentence \(address) \(count)")
        }
        for (kind, count) in statistics.ubxFrames.sorted(by: { $0.key < $1.key }) {
            lines.append("ubx \(kind) \(count)")
        }
        // The reasons that happened, in the list's order; one line when none did.
        let happened = RejectReason.allCases.filter { (statistics.rejects[$0] ?? 0) > 0 }
        if happened.isEmpty { lines.append("rejects 0") }
        for reason in happened {
            lines.append("reject \(reason) \(statistics.rejects[reason] ?? 0) (\(statistics.rejectedBytes[reason] ?? 0) bytes)")
        }
        if let latency, latency.median.magnitude > Self.liveClockBound {
            // Not a delay: the receiver's clock is elsewhere (a recording played into a port,
            // as demo does, or a receiver whose date is wrong).
            let hours = fixedPoint(latency.median / 3600, decimals: 1)
            lines.append("latency not measured: the receiver's time is \(hours) h from this system's clock "
                         + "(a recording played, or a receiver whose date is wrong)")
        } else if let latency {
            // Milliseconds, with the chrony setting they imply.
            func ms(_ value: Double) -> String { fixedPoint(value * 1000, decimals: 1) }
            lines.append("latency \(counted(latency.count, "fix", plural: "fixes")): min \(ms(latency.minimum)) ms, median \(ms(latency.median)) ms, "
                         + "p95 \(ms(latency.p95)) ms, max \(ms(latency.maximum)) ms "
                         + "(first byte's arrival minus the receiver's UTC time; chrony: offset \(fixedPoint(latency.median, decimals: 3)))")
        }
        let text = lines.joined(separator: "\n") + "\n"
        let error = BufferedOutput(fd: 2)
        error.write(text)
        error.flush()
    }
}
