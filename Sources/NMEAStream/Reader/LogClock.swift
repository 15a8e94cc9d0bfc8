/// When each of a log's times is due in a paced replay (the rules of ``LogPace``): pure, so
/// that they are tested without waiting. Log times are seconds of day; the wall clock is any
/// monotonic count of seconds (the reader passes the system's uptime).
struct LogClock: Sendable {
    /// How many times faster than recorded.
    let speed: Double
    /// Whether pauses longer than ``LogPace/longGap`` are waited out rather than shortened.
    let keepingGaps: Bool
    /// The log time and the wall time that pacing counts from.
    private var anchor: (log: Double, wall: Double)?
    private var lastLogTime: Double?
    private var dayOffset = 0.0
    /// The last step between two of the log's times up to ``LogPace/longGap``: what a longer
    /// pause is shortened to.
    private var cycle = 1.0

    /// The longest step forward in the log's time that is waited out, in seconds of log time.
    static let longestGap = 60.0
    /// The longest step back in the log's time that is a late report, sent at once, not a new
    /// recording: a u-blox navigation epoch after the high-rate fixes that ran ahead of it
    /// (about 0.4 s), a ZDA stamped a second before its cycle's fixes.
    static let lateReport = 2.0

    /// A clock for a replay `speed` times faster than recorded (not a positive number: 1).
    init(speed: Double, keepingGaps: Bool) {
        self.speed = speed.isFinite && speed > 0 ? speed : 1
        self.keepingGaps = keepingGaps
    }

    /// The wall time at which a unit stamped `time` (seconds of day) is due, the wall clock
    /// reading `now`: `now` itself when it is due at once.
    mutating func due(_ time: Double, now: Double) -> Double {
        var logTime = time + dayOffset
        if let last = lastLogTime {
            if last - logTime > 43_200 {
                // Past midnight.
                dayOffset += 86_400
                logTime += 86_400
            }
            let step = logTime - last
            if step < 0, -step <= Self.lateReport, anchor != nil {
                // Late: due at once, and the log's clock stays where it was.
                return now
            }
            if step < 0 || step > Self.longestGap {
                // Another recording, or a receiver that lost its clock: pace it from now.
                anchor = nil
            } else if step > LogPace.longGap {
                // A pause: shortened to one cycle (what is cut moves the anchor on), or kept.
                if !keepingGaps, let pinned = anchor { anchor = (pinned.log + step - cycle, pinned.wall) }
            } else if step > 0 {
                cycle = step
            }
        }
        lastLogTime = logTime
        guard let anchor else {
            anchor = (logTime, now)
            return now
        }
        return max(now, anchor.wall + (logTime - anchor.log) / speed)
    }
}
