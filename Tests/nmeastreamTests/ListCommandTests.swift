import Foundation
import Testing
import TestSupport

@Suite("nmeastream list", .mayBlock)
struct ListCommandTests {
    static let umockdev = "/usr/bin/umockdev-run"

    /// `nmeastream list` under umockdev with the given `Hardware/umockdev` descriptions.
    private func list(_ devices: [String], format: String = "json") throws -> CommandResult {
        try #require(FileManager.default.isExecutableFile(atPath: Self.umockdev), "umockdev is not installed (apt-get install umockdev)")
        let descriptions = devices.flatMap { ["-d", Command.packageRoot.appendingPathComponent("Hardware/umockdev/\($0).umockdev").path] }
        return try Command.run(["list", "--format", format], launcher: [Self.umockdev] + descriptions + ["--"])
    }

    private func objects(_ result: CommandResult) throws -> [[String: Any]] {
        try result.outputLines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("finds and classifies every mocked port, receivers first; placeholders and the modem's other ports kept apart")
    func classifiesAndOrders() throws {
        let result = try list(["arduino-uno", "bu353-pl2303", "quectel-ec25", "ublox-m8", "gnss-board-ch9102", "legacy-serial8250"])
        #expect(result.status == 0, "\(result.error)")
        let ports = try objects(result)
        let summary = ports.map { "\($0["kind"]!) \($0["path"]!)" }
        #expect(summary == [
            "gps /dev/ttyACM0", "gps /dev/ttyUSB2", "gps /dev/ttyACM2",
            "candidate /dev/ttyUSB0",
            "other /dev/ttyACM1", "other /dev/ttyUSB1", "other /dev/ttyUSB3", "other /dev/ttyUSB4",
        ])
        let ublox = try #require(ports.first)
        #expect(ublox["vendorID"] as? String == "1546" && ublox["productID"] as? String == "01a8")
        #expect(ublox["vendor"] as? String == "u-blox AG - www.u-blox.com")
        #expect(ublox["product"] as? String == "u-blox GNSS receiver")
        #expect(ublox["driver"] as? String == "cdc_acm")
        #expect(ublox["stablePath"] as? String == "/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00")
        for port in ports {
            for key in ["path", "vendorID", "productID", "vendor", "product", "driver", "kind"] {
                #expect(port[key] != nil, "\(port["path"] ?? "?") has no \(key)")
            }
        }
        #expect(!ports.contains { ($0["path"] as? String) == "/dev/ttyS3" }, "a legacy placeholder is not a port")
    }

    @Test("the text format: one line per port with its kind and why")
    func text() throws {
        let result = try list(["ublox-m8", "arduino-uno"], format: "text")
        #expect(result.status == 0)
        #expect(result.outputLines.count == 2)
        #expect(result.outputLines.first?.hasPrefix("gps") == true && result.outputLines.first?.contains("u-blox 8 (catalogue)") == true)
        #expect(result.outputLines.last?.hasPrefix("other") == true)
    }

    @Test("no ports: says so, and succeeds")
    func none() throws {
        let result = try list(["legacy-serial8250"], format: "text")
        #expect(result.status == 0)
        #expect(result.output == "no serial ports\n")
    }
}

@Suite("nmeastream with no device named", .mayBlock)
struct AutomaticReadTests {
    /// A umockdev script that has the device send `log` line by line, 5 ms apart.
    private func script(_ log: String) throws -> URL {
        let text = try String(contentsOfFile: Command.fixture(log), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map { "r 5 " + $0 + "^M^J" }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-\(UUID().uuidString).script")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func descriptions(_ names: [String]) -> [String] {
        names.flatMap { ["-d", Command.packageRoot.appendingPathComponent("Hardware/umockdev/\($0).umockdev").path] }
    }

    @Test("finds the mocked receiver among other devices and prints its fixes")
    func findsReceiver() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ListCommandTests.umockdev))
        let script = try script("ublox-multi.nmea")
        defer { try? FileManager.default.removeItem(at: script) }
        let launcher = [ListCommandTests.umockdev]
            + descriptions(["arduino-uno", "bu353-pl2303", "ublox-m8", "legacy-serial8250"])
            + ["-s", "/dev/ttyACM0=\(script.path)", "--"]
        // Reading starts wherever the device is in its log when the reader has set it up, perhaps
        // among a cycle's GSA sentences, each then an epoch of its own: by the sixth fix it is in
        // step with the receiver's cycles.
        let result = try Command.run(["--count", "6", "--format", "json"], launcher: launcher)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("reading /dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00 (u-blox 8)"))
        let tpv = result.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(tpv.count == 6)
        #expect(tpv.last?.contains("\"lat\":52.123456783") == true)
    }

    @Test("the shipped device script: a BU-353-style puck behind a PL2303 bridge, chosen as a candidate")
    func shippedScript() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ListCommandTests.umockdev))
        let script = Command.packageRoot.appendingPathComponent("Hardware/umockdev/bu353-pl2303.script").path
        let launcher = [ListCommandTests.umockdev] + descriptions(["bu353-pl2303", "arduino-uno"])
            + ["-s", "/dev/ttyUSB0=\(script)", "--"]
        let result = try Command.run(["--count", "2"], launcher: launcher)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("(Prolific PL2303 USB-serial bridge)"))
        #expect(result.outputLines.first?.hasPrefix("2014-12-31T03:07:19.000Z  -37.7847883 175.3148967") == true)
        #expect(result.outputLines.count == 2)
    }

    @Test("no receiver: says which ports it saw and why none qualified, and fails")
    func noReceiver() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ListCommandTests.umockdev))
        let launcher = [ListCommandTests.umockdev] + descriptions(["arduino-uno", "legacy-serial8250"]) + ["--"]
        let result = try Command.run(["--count", "1"], launcher: launcher)
        #expect(result.status == 69)
        #expect(result.error.contains("no GPS receiver found"))
        #expect(result.error.contains("/dev/ttyACM1 (not a known receiver or bridge (cdc_acm))"))
    }
}
