import ArgumentParser
import NMEAStream

/// What an input that gave no fix was missing, so that a read or replay says so, rather than
/// blaming the antenna for a port that sent nothing or a file that holds no NMEA.
enum InputDiagnosis: Equatable {
    /// Not one byte came.
    case noBytes
    /// Bytes came, but not one checksum-valid NMEA sentence among them.
    case noNMEA(bytes: Int)
    /// u-blox UBX frames came, and no NMEA sentence: a receiver in UBX-only mode, or its log.
    case onlyUBX(frames: Int)
    /// Sentences came, and no fix among them.
    case noFix(sentences: Int)

    /// The diagnosis of an input that `statistics` describe and that gave a fix (of 2D or
    /// better) or not; `nil` when it gave one.
    init?(_ statistics: NMEAStatistics, sawFix: Bool) {
        if sawFix { return nil }
        if statistics.bytes == 0 {
            self = .noBytes
        } else if statistics.sentenceCount == 0, statistics.ubxFrameCount > 0 {
            self = .onlyUBX(frames: statistics.ubxFrameCount)
        } else if statistics.sentenceCount == 0 {
            self = .noNMEA(bytes: statistics.bytes)
        } else {
            self = .noFix(sentences: statistics.sentenceCount)
        }
    }

    /// One line for standard error about `source` (a device or a file); `seconds` is how long
    /// a live read waited, `nil` for a whole file.
    func message(source: String, seconds: Double? = nil) -> String {
        let waited = seconds.map { " in \(fixedPoint($0, decimals: 1)) s" } ?? ""
        switch self {
        case .noBytes:
            return seconds == nil
                ? "\(source) is empty: no NMEA to decode"
                : "no bytes from \(source)\(waited): is it the receiver's port, and is the receiver powered?"
        case .noNMEA(let bytes):
            return "\(counted(bytes, "byte")) from \(source)\(waited) but no NMEA 0183 sentence among them: "
                + (seconds == nil ? "is it a binary log (u-blox UBX, SiRF) or another format?"
                                  : "is the speed right (--speed, or none to find it), or does the receiver send a binary protocol?")
        case .onlyUBX(let frames):
            // Said as it is: nmeastream frames and counts UBX, and makes no fix of it yet.
            return "\(counted(frames, "u-blox UBX frame")) from \(source)\(waited) but no NMEA 0183 sentence: "
                + "nmeastream does not yet make fixes from UBX alone (`--stats` counts the frames by kind)"
        case .noFix(let sentences):
            return "\(counted(sentences, "NMEA sentence")) from \(source)\(waited) but no fix: "
                + (seconds == nil ? "the receiver had none while it was recorded"
                                  : "check the antenna's view of the sky (a cold start can take a minute or more)")
        }
    }

    private func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The exit code of a replay that ends so: 65 (data error) for input with no NMEA at all;
    /// `nil` (success) for NMEA without a fix, which is what the receiver said.
    var replayExitCode: ExitCode? {
        switch self {
        case .noBytes, .noNMEA, .onlyUBX: .dataError
        case .noFix: nil
        }
    }
}
