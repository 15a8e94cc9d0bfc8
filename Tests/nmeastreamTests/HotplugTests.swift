import Foundation
import Testing

/// Hotplug under a umockdev testbed: `Drivers/hotplug.py` (GObject introspection's UMockdev,
/// run under umockdev-wrapper) adds and removes mocked devices while the command listens.
@Suite("hotplug")
struct HotplugTests {
    static let wrapper = "/usr/bin/umockdev-wrapper"
    static let python = "/usr/bin/python3"
    static let driver = Command.packageRoot.appendingPathComponent("Tests/Drivers/hotplug.py").path

    private func description(_ name: String) -> String {
        Command.packageRoot.appendingPathComponent("Hardware/umockdev/\(name).umockdev").path
    }

    /// Runs `arguments` under a testbed driven by `steps` (see hotplug.py).
    private func run(_ arguments: [String], steps: [[String: Any]]) throws -> CommandResult {
        try #require(FileManager.default.isExecutableFile(atPath: Self.wrapper), "umockdev is not installed")
        let stepsFile = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-steps-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: steps).write(to: stepsFile)
        defer { try? FileManager.default.removeItem(at: stepsFile) }
        return try Command.run(arguments, launcher: [Self.wrapper, Self.python, Self.driver, stepsFile.path, "--"])
    }

    @Test("list --watch: a receiver plugged in, another device, the receiver unplugged and plugged back in another port")
    func watch() throws {
        let result = try run(["list", "--watch", "--format", "json"], steps: [
            ["sleep": 0.3],
            ["add": description("ublox-m8")],
            ["wait": "\"event\":\"add\",\"path\":\"/dev/ttyACM0\""],
            ["add": description("arduino-uno")],
            ["wait": "\"path\":\"/dev/ttyACM1\""],
            ["unplug": description("ublox-m8")],
            ["wait": "\"event\":\"remove\""],
            // Plugged back into another port: another node name, the same stable link.
            ["add": description("ublox-m8-replugged")],
            ["sleep": 0.3],
        ])
        #expect(result.status == 0, "\(result.error)\n\(result.output)")
        let events = try result.outputLines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }.map { "\($0["event"] ?? "") \($0["path"] ?? "") \($0["kind"] ?? "")" }
        #expect(events == [
            "add /dev/ttyACM0 gps",
            "add /dev/ttyACM1 other",
            "remove /dev/ttyACM0 ",
            "add /dev/ttyACM3 gps",
        ])
    }
}
