import Platform

/// Why a GPS source could not be opened or read; its ``description`` says what happened.
public enum GPSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case noSuchDevice(path: String)
    /// The device exists but this user may not open it; `group` is the group that owns it
    /// (`nil` when it could not be read).
    case permissionDenied(path: String, group: String?)
    /// Another process holds the device exclusively; `holders` names the processes found
    /// holding it open, such as `gpsd (pid 812)` (empty when none could be seen).
    case busy(path: String, holders: [String])
    /// The path is not a terminal device (a regular file, a directory…).
    case notATerminal(path: String)
    /// A fixed speed that no serial line here supports.
    case unsupportedSpeed(path: String, speed: Int)
    /// No checksum-valid NMEA arrived at any of the speeds tried.
    case noNMEAFound(path: String, speedsTried: [Int])
    /// The device went away while open (unplugged): end of file, `EIO`, `ENXIO` or a hang-up;
    /// `errno` is `nil` for an end of file.
    case deviceLost(path: String, errno: Errno?)
    /// Reading failed for another reason.
    case readError(path: String, errno: Errno)
    /// Opening or setting up the device failed for another reason.
    case openFailed(path: String, errno: Errno)
    /// Automatic discovery found no GPS receiver.
    case noReceiverFound(detail: String)
    /// udev could not be asked about devices.
    case discoveryFailed(detail: String)
    /// A recorded log could not be opened or read.
    case log(RecordedLogError)
    /// The source, open, sent nothing for `seconds`, past its ``StaleLimit``: it was closed.
    /// `source` is the device's path or the network receiver's URL.
    case silent(source: String, seconds: Double)

    /// One line: what happened, with what the system told (the group that owns the device,
    /// the processes that hold it, the speeds tried). What to do about it depends on the
    /// program: the `nmeastream` command adds its own advice.
    public var description: String {
        switch self {
        case .noSuchDevice(let path):
            return "\(path): no such device"
        case .permissionDenied(let path, let group?):
            return "\(path): permission denied; the device belongs to group '\(group)'"
        case .permissionDenied(let path, nil):
            return "\(path): permission denied"
        case .busy(let path, let holders) where holders.isEmpty:
            return "\(path): busy: another process holds it open exclusively"
        case .busy(let path, let holders):
            return "\(path): busy: held by \(holders.joined(separator: ", "))"
        case .notATerminal(let path):
            return "\(path): not a serial device"
        case .unsupportedSpeed(let path, let speed):
            let speeds = SerialSpeed.supported.map(String.init).joined(separator: ", ")
            return "\(path): \(speed) bit/s is not a supported speed (supported: \(speeds))"
        case .noNMEAFound(let path, let speeds):
            let tried = speeds.map(String.init).joined(separator: ", ")
            return "\(path): no NMEA at any speed tried (\(tried))"
        case .deviceLost(let path, nil):
            return "\(path): the device went away (end of file)"
        case .deviceLost(let path, let code?):
            return "\(path): the device went away (\(code))"
        case .readError(let path, let code):
            return "\(path): read failed: \(code)"
        case .openFailed(let path, let code):
            return "\(path): cannot open: \(code)"
        case .noReceiverFound(let detail):
            return "no GPS receiver found: \(detail)"
        case .discoveryFailed(let detail):
            return "cannot look for receivers: \(detail)"
        case .log(let error):
            return error.description
        case .silent(let source, let seconds):
            return "\(source): sent nothing for \((seconds * 10).rounded() / 10) s; closed"
        }
    }

    /// The error for an `open` of `path` that failed with `code`.
    static func opening(_ path: String, errno code: Errno) -> GPSError {
        switch code {
        case .noSuchFile, .noSuchDevice, .noSuchDeviceOrAddress: .noSuchDevice(path: path)
        case .permissionDenied, .notPermitted: .permissionDenied(path: path, group: owningGroup(of: path))
        case .busy: .busy(path: path, holders: processesHolding(path))
        default: .openFailed(path: path, errno: code)
        }
    }

    /// The name of the group that owns `path`, or `nil`.
    static func owningGroup(of path: String) -> String? {
        guard let status = try? Syscall.status(path) else { return nil }
        return Syscall.groupName(status.groupID)
    }

    /// The processes with `path` open, as `name (pid N)`, found through `/proc` (only those
    /// this user may inspect).
    static func processesHolding(_ path: String) -> [String] {
        let target = Syscall.resolvedPath(path)
        let me = Syscall.processID
        var holders: [String] = []
        for name in Syscall.directoryEntries("/proc") ?? [] {
            guard let pid = Int32(name), pid != me else { continue }
            let descriptors = Syscall.directoryEntries("/proc/\(pid)/fd") ?? []
            guard descriptors.contains(where: { Syscall.linkTarget("/proc/\(pid)/fd/\($0)") == target }) else { continue }
            holders.append("\(command(of: pid)) (pid \(pid))")
        }
        return holders
    }

    /// The command name of process `pid` (`/proc/PID/comm`), or "process" when it cannot be read.
    private static func command(of pid: Int32) -> String {
        guard let bytes = try? Syscall.readFile("/proc/\(pid)/comm") else { return "process" }
        let name = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        return name.isEmpty ? "process" : name
    }
}
