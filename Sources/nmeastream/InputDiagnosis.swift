import ArgumentParser
import NMEAStream

/// What an input that gave no fix was missing, so that a read or replay says so, rather than
/// blaming the antenna for a port that sent nothing or a file that holds no NMEA.
enum InputDiagnosis: Equatable {
    /// Not one byte came.
    case noBytes
    /// Bytes came, but not one checksum-valid NMEA sentence among them.
    case noNMEA(bytes: Int)
    /// u-blox UBX frames came, and no NMEA sentence, and none of the frames is a navigation
    /// message nmeastream makes fixes from (NAV-PVT, NAV-SOL...): a receiver set to send raw
    /// measurements or other messages only.
    case noUBXNavigation(frames: Int)
    /// Sentences or UBX navigation messages came, and no fix among them.
    case noFixUBX(frames: Int)
    /// Sentences came, and no fix among them.
    case noFix(sentences: Int)

    /// The diagnosis of an input that `statistics` describe and that gave a fix (of 2D or
    /// better) or not; `nil` when it gave one.
    init?(_ statistics: NMEAStatistics, sawFix: Bool) {
        if sawFix { return nil }
        if statistics.bytes == 0 {
            self = .noBytes
        } else if statistics.sentenceCount == 0, statistics.ubxFrameCount > 0 {
            let navigation = statistics.ubxFrames.keys.contains { UBXMessage.navigationKinds.contains($0) }
            self = navigation ? .noFixUBX(frames: statistics.ubxFrameCount) : .noUBXNavigation(frames: statistics.ubxFrameCount)
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
            if seconds == nil { return "\(source) is empty: no NMEA to decode" }
            if NetworkEndpoint.isURL(source) {
                return "no bytes from \(source)\(waited): is the peer up, and does it send NMEA there?"
            }
            return "no bytes from \(source)\(waited): is it the receiver's port, and is the receiver powered?"
        case .noNMEA(let bytes):
            return "\(counted(bytes, "byte")) from \(source)\(waited) but no NMEA 0183 sentence among them: "
                + (seconds == nil ? "is it a binary log (u-blox UBX, SiRF) or another format?"
                                  : "is the speed right (--speed, or none to find it), or does the receiver send a binary protocol?")
        case .noUBXNavigation(let frames):
            return "\(counted(frames, "u-blox UBX frame")) from \(source)\(waited) but no NMEA 0183 sentence and no UBX "
                + "navigation message (NAV-PVT, NAV-SOL, NAV-POSLLH...): the receiver sends other messages only "
                + "(`--stats` counts them by kind)"
        case .noFixUBX(let frames):
            return "\(counted(frames, "u-blox UBX frame")) from \(source)\(waited) but no fix: " + noFixAdvice(live: seconds != nil)
        case .noFix(let sentences):
            return "\(counted(sentences, "NMEA sentence")) from \(source)\(waited) but no fix: " + noFixAdvice(live: seconds != nil)
        }
    }

    private func noFixAdvice(live: Bool) -> String {
        live ? "check the antenna's view of the sky (a cold start can take a minute or more)"
             : "the receiver had none while it was recorded"
    }


    /// The exit code of a replay that ends so: 65 (data error) for input with no NMEA and no
    /// UBX navigation message at all; `nil` (success) for either without a fix, which is what
    /// the receiver said.
    var replayExitCode: ExitCode? {
        switch self {
        case .noBytes, .noNMEA, .noUBXNavigation: .dataError
        case .noFix, .noFixUBX: nil
        }
    }
}
