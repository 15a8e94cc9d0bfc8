/// How fast a recorded log is replayed.
public enum LogPace: Sendable, Hashable, CustomStringConvertible {
    /// As fast as it can be read and decoded.
    case asFastAsPossible
    /// At the pace of the log's own timestamps (the UTC times of its GGA, RMC, GLL, GNS, ZDA,
    /// GST and GBS sentences), sped up by `speed`: 1 is real time, 10 ten times as fast.
    /// Sentences between two timestamps go out together; midnight is crossed as one second. A
    /// time up to two seconds behind the latest (a report that comes late, such as a u-blox
    /// navigation epoch after its high-rate fixes) goes out at once. A time that goes further
    /// back, or jumps ahead by more than a minute (a new recording appended, a receiver that
    /// lost its clock), is not waited for: pacing starts over there.
    /// A pause of more than ``longGap`` seconds of log time and up to a minute (a logger that
    /// paused, a receiver that said nothing while it had no fix) is shortened to one cycle of
    /// the log (the last step between its times, one second until one is seen), unless
    /// `keepingGaps`, which waits it out.
    case recorded(speed: Double, keepingGaps: Bool = false)

    /// The longest pause in a log's times, in seconds of log time, that is replayed as
    /// recorded when gaps are not kept.
    public static let longGap = 5.0

    /// Real time.
    public static let realTime = LogPace.recorded(speed: 1)

    /// `as fast as possible`, or `×speed`.
    public var description: String {
        switch self {
        case .asFastAsPossible: "as fast as possible"
        case .recorded(let speed, false): "×\(speed)"
        case .recorded(let speed, true): "×\(speed), gaps kept"
        }
    }
}
