import Foundation
import Testing
import TestSupport

/// Hotplug under a umockdev testbed: `Drivers/hotplug.py` (GObject introspection's UMockdev,
/// run under umockdev-wrapper) adds and removes mocked devices while the command listens.
@Suite("hotplug", .mayBlock)
struct HotplugTests {
    static let wrapper = "/usr/bin/umockdev-wrapper"
    static let python = "/usr/bin/python3"
    static let driver = Command.packageRoot.appendingPathComponent("Tests/Drivers/hotplug.py").path

    static func description(_ name: String) -> String {
        Command.packageRoot.appendingPathComponent("Hardware/umockdev/\(name).umockdev").path
    }

    /// Runs `arguments` under a testbed driven by `steps` (see hotplug.py).
    static func run(_ arguments: [String], steps: [[String: Any]]) throws -> CommandResult {
        try #require(FileManager.default.isExecutableFile(atPath: wrapper), "umockdev is not installed")
        let stepsFile = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-steps-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: steps).write(to: stepsFile)
        defer { try? FileManager.default.removeItem(at: stepsFile) }
        return try Command.run(arguments, launcher: [wrapper, python, driver, stepsFile.path, "--"])
    }

    /// A umockdev script in which the device sends the u-blox fixture, a line every 5 ms; the
    /// caller removes it.
    static func fixtureScript() throws -> URL {
        let lines = try String(contentsOfFile: Command.fixture("ublox-multi.nmea"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map { "r 5 " + $0 + "^M^J" }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-\(UUID().uuidString).script")
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        return script
    }

    @Test("list --watch: a receiver plugged in, another device, the receiver unplugged and plugged back in another port")
    func watch() throws {
        let result = try Self.run(["list", "--watch", "--format", "json"], steps: [
            ["sleep": 0.3],
            ["add": Self.description("ublox-m8")],
            ["wait": "\"event\":\"add\",\"path\":\"/dev/ttyACM0\""],
            ["add": Self.description("arduino-uno")],
            ["wait": "\"path\":\"/dev/ttyACM1\""],
            ["unplug": Self.description("ublox-m8")],
            ["wait": "\"event\":\"remove\""],
            // Plugged back into another port: another node name, the same stable link.
            ["add": Self.description("ublox-m8-replugged")],
            ["sleep": 0.3],
        ])
        #expect(result.status == 0, "\(result.error)\n\(result.output)")
        #expect(result.error.contains("nmeastream: watching for ports plugged in (+) and out (-); Ctrl-C to stop"), "\(result.error)")
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

@Suite("nmeastream --watch", .mayBlock)
struct WatchTests {
    @Test("waits for a receiver, reads it, and when it is unplugged carries on with it under another node")
    func followsReceiver() throws {
        let script = try HotplugTests.fixtureScript()
        defer { try? FileManager.default.removeItem(at: script) }
        let ublox = HotplugTests.description("ublox-m8"), replugged = HotplugTests.description("ublox-m8-replugged")
        let fix3 = "\"time\":\"2024-06-05T12:30:03.000Z\",\"ept\":0.005,\"lat\""
        let steps: [[String: Any]] = [
            ["sleep": 0.3],
            ["add": ublox],
            ["script": ["/dev/ttyACM0", script.path]],
            ["wait": fix3],
            ["unplug": ublox],
            ["wait": "went away"],
            ["add": replugged],
            ["script": ["/dev/ttyACM3", script.path]],
            ["wait": fix3, "count": 2],
        ]
        let result = try HotplugTests.run(["--watch", "--format", "json"], steps: steps)
        #expect(result.status == 0, "\(result.error)")
        let notices = result.error.split(separator: "\n").filter { $0.hasPrefix("nmeastream: ") }
        // Nothing plugged in at the start: it says that it waits.
        #expect(notices.first == "nmeastream: no receiver plugged in; waiting for one (Ctrl-C to stop)")
        #expect(notices.dropFirst().first == "nmeastream: reading /dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00 (u-blox 8)")
        #expect(notices.contains("nmeastream: /dev/ttyACM0 went away; waiting for a receiver"))
        // The same receiver, back on another node (its stable link as udev would make it again).
        #expect(notices.filter { $0.hasPrefix("nmeastream: reading ") && $0.hasSuffix("(u-blox 8)") }.count == 2)
        let fixes = result.outputLines.filter { $0.contains("\"class\":\"TPV\"") }
        #expect(fixes.filter { $0.contains(fix3) }.count == 2, "fixes from both devices")
    }
}

@Suite("nmeastream serve, following hotplug", .mayBlock)
struct ServeHotplugTests {
    @Test("no device named: a receiver plugged in is served to a client already watching; unplugged, it is announced and the client stays; replugged, fixes again")
    func servesWhatIsPluggedIn() throws {
        let script = try HotplugTests.fixtureScript()
        defer { try? FileManager.default.removeItem(at: script) }
        let ublox = HotplugTests.description("ublox-m8"), replugged = HotplugTests.description("ublox-m8-replugged")
        let fromFirst = "{\"class\":\"TPV\",\"device\":\"/dev/ttyACM0\""
        let fromReplugged = "{\"class\":\"TPV\",\"device\":\"/dev/ttyACM3\""
        let steps: [[String: Any]] = [
            ["wait": "serving every receiver plugged in (now: none) on 127.0.0.1:"],
            ["connect": "on 127\\.0\\.0\\.1:([0-9]+)", "send": "?WATCH={\"enable\":true,\"json\":true}\n"],
            ["wait": "client: {\"class\":\"WATCH\""],
            ["add": ublox],
            ["script": ["/dev/ttyACM0", script.path]],
            ["wait": fromFirst, "count": 2],
            ["unplug": ublox],
            ["wait": "\"activated\":0"],
            ["add": replugged],
            ["script": ["/dev/ttyACM3", script.path]],
            ["wait": fromReplugged, "count": 2],
        ]
        let result = try HotplugTests.run(["serve", "--listen", "127.0.0.1:0"], steps: steps)
        #expect(result.status == 0, "\(result.error)")
        let received = result.outputLines.filter { $0.hasPrefix("client: ") }.map { String($0.dropFirst(8)) }
        func objects(_ prefix: String) -> [String] { received.filter { $0.hasPrefix(prefix) } }
        // The DEVICE line on arrival, before any report from it; the notice on unplugging.
        let notices = received.filter { $0.hasPrefix("{\"class\":\"DEVICE\",") }
        try #require(notices.count == 3, "\(notices)\n\(result.error)\n\(received.prefix(20))")
        #expect(notices.first?.hasPrefix("{\"class\":\"DEVICE\",\"path\":\"/dev/ttyACM0\",\"activated\":\"") == true)
        #expect(notices.dropFirst().first == "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyACM0\",\"activated\":0}")
        #expect(notices.last?.hasPrefix("{\"class\":\"DEVICE\",\"path\":\"/dev/ttyACM3\",\"activated\":\"") == true)
        let first = try #require(received.firstIndex(of: notices[0]))
        let gone = try #require(received.firstIndex(of: notices[1]))
        let back = try #require(received.lastIndex(of: notices[2]))
        #expect(received[..<first].allSatisfy { !$0.hasPrefix("{\"class\":\"TPV\"") })
        let before = received[first..<gone].filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        let after = received[back...].filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(before.count >= 2 && before.allSatisfy { $0.hasPrefix(fromFirst) })
        #expect(after.count >= 2 && after.allSatisfy { $0.hasPrefix(fromReplugged) })
        #expect(objects("{\"class\":\"SKY\",\"device\":\"/dev/ttyACM3\"").count > 0)
        #expect(received[gone..<back].allSatisfy { !$0.hasPrefix("{\"class\":\"TPV\"") }, "nothing from a device unplugged")
    }

    @Test("no device named: USB-serial bridges listened to; a PL2303 puck and a CP210x board that send NMEA are served (fixes reach gpspipe), an Arduino behind a CH340 that sends other text is closed and left alone; each decision said and in DEVICES",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gpspipe"), "gpsd-clients is not installed"))
    func servesCandidates() throws {
        let nmea = try HotplugTests.fixtureScript()
        defer { try? FileManager.default.removeItem(at: nmea) }
        // An Arduino printing its sensor's readings, for longer than the speed hunt takes.
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-\(UUID().uuidString).script")
        try (Array(repeating: "r 50 Hello from the sensor: t=23.5 h=41^M^J", count: 400).joined(separator: "\n") + "\n")
            .write(to: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: text) }
        let port = "on 127\\.0\\.0\\.1:([0-9]+)"
        let steps: [[String: Any]] = [
            ["wait": "serving every receiver plugged in (now: none) on 127.0.0.1:"],
            ["gpspipe": port],
            ["wait": "gpspipe: {\"class\":\"WATCH\""],
            ["add": HotplugTests.description("arduino-nano-ch340")],
            ["script": ["/dev/ttyUSB2", text.path]],
            ["add": HotplugTests.description("bu353-pl2303")],
            ["script": ["/dev/ttyUSB0", nmea.path]],
            ["add": HotplugTests.description("cp2102-gnss-board")],
            ["script": ["/dev/ttyUSB1", nmea.path]],
            ["wait": "gpspipe: {\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\"", "count": 2],
            ["wait": "gpspipe: {\"class\":\"TPV\",\"device\":\"/dev/ttyUSB1\"", "count": 2],
            ["wait": "/dev/ttyUSB2: WCH CH340 USB-serial bridge (catalogue): no NMEA at any speed tried", "timeout": 30],
            ["connect": port, "send": "?DEVICES;\n"],
            ["wait": "client: {\"class\":\"DEVICES\""],
        ]
        let result = try HotplugTests.run(["serve", "--listen", "127.0.0.1:0"], steps: steps)
        #expect(result.status == 0, "\(result.error)")
        let said = result.error
        #expect(said.contains("/dev/ttyUSB0: Prolific PL2303 USB-serial bridge (catalogue): listening for NMEA or UBX"), "\(said)")
        #expect(said.contains("/dev/ttyUSB0: Prolific PL2303 USB-serial bridge (catalogue): valid NMEA or UBX at "), "\(said)")
        #expect(said.contains("/dev/ttyUSB1: Silicon Labs CP210x USB-serial bridge (catalogue): valid NMEA or UBX at "), "\(said)")
        #expect(said.contains("not a receiver, left alone"), "\(said)")
        let piped = result.outputLines.filter { $0.hasPrefix("gpspipe: ") }
        #expect(!piped.contains { $0.contains("\"device\":\"/dev/ttyUSB2\"") && $0.contains("\"class\":\"TPV\"") }, "nothing from the Arduino")
        let devices = try #require(result.outputLines.first { $0.hasPrefix("client: {\"class\":\"DEVICES\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(devices.dropFirst(8).utf8)) as? [String: Any])
        let listed = (object["devices"] as? [[String: Any]]) ?? []
        let byPath = Dictionary(listed.compactMap { device in (device["path"] as? String).map { ($0, device) } }, uniquingKeysWith: { a, _ in a })
        #expect((byPath["/dev/ttyUSB0"]?["discovered"] as? String)?.hasSuffix(": served") == true, "\(devices)")
        #expect((byPath["/dev/ttyUSB1"]?["activated"] as? String) != nil, "open for gpspipe: \(devices)")
        let arduino = byPath["/dev/ttyUSB2"]
        #expect((arduino?["discovered"] as? String)?.hasSuffix("not a receiver, left alone") == true, "\(devices)")
        #expect(arduino?["activated"] == nil, "never opened for a client")
    }
}
