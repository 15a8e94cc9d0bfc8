import NMEAStream

/// The `--stats` report on standard error.
enum StatisticsReport {
    static func print(_ statistics: NMEAStatistics) {
        var lines = ["bytes \(statistics.bytes)", "sentences \(statistics.sentenceCount)",
                     "fixes \(statistics.fixes)", "satellite-views \(statistics.satelliteViews)"]
        for (address, count) in statistics.sentences.sorted(by: { $0.key < $1.key }) {
            lines.append("sentence \(address) \(count)")
        }
        for reason in RejectReason.allCases {
            let count = statistics.rejects[reason] ?? 0
            lines.append("reject \(reason) \(count) (\(statistics.rejectedBytes[reason] ?? 0) bytes)")
        }
        let text = lines.joined(separator: "\n") + "\n"
        let error = BufferedOutput(fd: 2)
        error.write(text)
        error.flush()
    }
}
