/// Where a paced replay must wait: the seconds of day a sentence's UTC time says, for the
/// sentence types that carry one.
enum LogPacer {
    /// The seconds since midnight of `line` (one sentence, line end excluded), or `nil` when
    /// it carries no time or the time field is not `hhmmss[.s…]`.
    static func secondsOfDay(_ line: UnsafeRawBufferPointer) -> Double? {
        guard let time = NMEASentence.timeOfDay(inLine: line) else { return nil }
        return Double(time.nanosecondsSinceMidnight) / 1e9
    }
}
