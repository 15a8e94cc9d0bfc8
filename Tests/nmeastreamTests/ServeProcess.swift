import Foundation
import TestSupport

/// `nmeastream serve ARGUMENTS --listen 127.0.0.1:0` as a process, once it listens: the port
/// it took, and what it said on standard error.
final class ServeProcess {
    let process: ChildProcess
    /// Where its standard error goes.
    let errorPath: String
    /// The gpsd port it listens on.
    let port: Int

    /// Starts it, its errors to `errorPath`, and waits until it says where it listens.
    init(_ arguments: [String], errorPath: String) throws {
        self.errorPath = errorPath
        process = try ChildProcess(Command.executable.path, ["serve"] + arguments + ["--listen", "127.0.0.1:0"], errorPath: errorPath)
        guard waitForChanges(to: errorPath, until: { ServeProcess.text(errorPath).contains(" on 127.0.0.1:") }),
              let port = ServeProcess.text(errorPath).split(separator: "\n").first.flatMap({ Int($0.split(separator: ":").last ?? "") }) else {
            process.terminate()
            _ = process.waitForExit()
            throw ServeProcessError(said: ServeProcess.text(errorPath))
        }
        self.port = port
    }

    /// What it has said on standard error so far.
    var said: String { Self.text(errorPath) }

    /// Stops it (SIGTERM) and waits for it to end.
    func stop() {
        process.terminate()
        _ = process.waitForExit()
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// A report's `time` (`2026-11-27T08:18:13.000Z`) in seconds since 1970; `nil` when it is
    /// not one.
    static func seconds(ofReportTime time: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: time)?.timeIntervalSince1970
    }
}

/// `serve` ended, or never said where it listens.
struct ServeProcessError: Error, CustomStringConvertible {
    var said: String
    var description: String { "serve did not start listening: \(said)" }
}

extension ChildProcess {
    /// A kilobyte figure of its /proc/PID/status (`VmRSS`, `VmHWM` the peak resident memory);
    /// 0 once it has ended.
    func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
    }
}
