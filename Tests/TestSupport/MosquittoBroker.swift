#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A real MQTT broker for a test: Debian's `mosquitto` on a free loopback port, with its own
/// folder, configuration, persistence and log; killed and its folder removed when released.
public final class MosquittoBroker {
    public static let executable = "/usr/sbin/mosquitto"
    /// Whether mosquitto is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let folder: String
    public let port: Int
    public private(set) var process: ChildProcess?

    /// Starts a broker; with `passwordFile`, it refuses anonymous clients.
    public init(passwordFile: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-mqtt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = freeLoopbackPort()
        let access = passwordFile.map { "allow_anonymous false\npassword_file \($0)\n" } ?? "allow_anonymous true\n"
        // Saved at every change: a broker killed with SIGKILL keeps what it accepted.
        // `user root`: run as root (the tests are), mosquitto would otherwise drop to its own
        // user and could not write its folder.
        try """
            user root
            listener \(port) 127.0.0.1
            \(access)persistence true
            persistence_location \(folder)/
            autosave_on_changes true
            autosave_interval 1
            log_dest file \(folder)/mosquitto.log
            log_type all

            """.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts it again (after ``kill()``), and waits until it listens.
    public func start() throws {
        process = try ChildProcess(Self.executable, ["-c", folder + "/mosquitto.conf"])
        #expect(eventually { (try? LineClient(port: port)) != nil }, "the broker listens")
    }

    /// SIGKILL: no goodbye, only what it saved.
    public func kill() {
        if let process { Glibc.kill(process.pid, SIGKILL); _ = process.waitForExit() }
        process = nil
    }

    /// What it has logged so far.
    public var log: String { (try? String(contentsOfFile: folder + "/mosquitto.log", encoding: .utf8)) ?? "" }

    deinit {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
