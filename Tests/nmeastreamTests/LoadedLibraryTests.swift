import Foundation
import Testing
import TestSupport

/// libmosquitto and SQLite are loaded when a command needs them, not linked: with one missing,
/// the commands that need it say so and how to install it, and the others run. The library is
/// hidden from the command by an empty file mounted over it in a mount namespace of its own
/// (root only: the tests are skipped elsewhere).
@Suite("Libraries loaded when needed", .mayBlock)
struct LoadedLibraryTests {
    static let canHide = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    /// The path the dynamic loader finds `soname` at (`ldconfig -p`).
    static func installedPath(_ soname: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
        process.arguments = ["-p"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try #require(text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") },
                                "\(soname) is not installed")
        return String(try #require(line.split(separator: " ").last))
    }

    /// Runs the command with `soname` replaced by an empty file.
    static func run(without soname: String, _ arguments: [String]) throws -> CommandResult {
        let library = try installedPath(soname)
        let script = "mount --bind /dev/null '\(library)' && exec \"$0\" \"$@\""
        return try Command.run(arguments, launcher: ["/usr/bin/unshare", "--mount", "/bin/sh", "-c", script])
    }

    @Test("without libmosquitto: subscribe and publish say that MQTT needs it and how to install it (69); replay runs",
          .enabled(if: canHide))
    func withoutMosquitto() throws {
        let subscribed = try Self.run(without: "libmosquitto.so.1", ["subscribe", "mqtt://127.0.0.1:1/fleet", "--count", "1"])
        #expect(subscribed.status == 69, "\(subscribed.error)")
        #expect(subscribed.error.contains("libmosquitto is needed for MQTT and could not be loaded"), "\(subscribed.error)")
        #expect(subscribed.error.contains("apt-get install libmosquitto1"), "\(subscribed.error)")
        let published = try Self.run(without: "libmosquitto.so.1", ["publish", "mqtt://127.0.0.1:1/fleet", "--log", Command.fixture("sirf-cycle.nmea")])
        #expect(published.status == 69, "\(published.error)")
        #expect(published.error.contains("libmosquitto is needed for MQTT"), "\(published.error)")
        let replayed = try Self.run(without: "libmosquitto.so.1", ["replay", "--format", "json", Command.fixture("sirf-cycle.nmea")])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(replayed.output.contains("\"class\":\"TPV\""))
    }

    @Test("without SQLite: publish --queue says that the queue needs it and how to install it (69)", .enabled(if: canHide))
    func withoutSQLite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let published = try Self.run(without: "libsqlite3.so.0",
                                     ["publish", "mqtt://127.0.0.1:1/fleet", "--log", Command.fixture("sirf-cycle.nmea"), "--queue", folder])
        #expect(published.status == 69, "\(published.error)")
        #expect(published.error.contains("SQLite is needed for the store and could not be loaded"), "\(published.error)")
        #expect(published.error.contains("apt-get install libsqlite3-0"), "\(published.error)")
    }
}
