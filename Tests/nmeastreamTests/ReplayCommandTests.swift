import Foundation
import TestSupport
import Testing

@Suite("nmeastream replay", .mayBlock)
struct ReplayCommandTests {
    @Test("json: a SKY then a TPV line per epoch, as gpsd sends them: the SKY with the epoch's dilutions, and its satellites when the receiver sent GSV")
    func json() throws {
        let result = try Command.run(["replay", "--format", "json", Command.fixture("sirf-cycle.nmea")])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        let objects = try result.outputLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["class"] as? String } == Array(repeating: ["SKY", "TPV"], count: 20).flatMap { $0 })
        let skies = objects.filter { $0["class"] as? String == "SKY" }
        #expect(skies.allSatisfy { $0["hdop"] as? Double == 1.1 && $0["uSat"] as? Int == 8 })
        // The log has GSV every fifth epoch; the SKYs between have no nSat and no satellites.
        #expect(skies.filter { $0["nSat"] != nil }.count == 4)
        #expect(skies.filter { $0["satellites"] != nil }.count == 4)
        let first = try #require(objects.first { $0["class"] as? String == "TPV" })
        #expect(first["time"] as? String == "2014-12-31T03:07:19.000Z")
        #expect(first["mode"] as? Int == 3)
    }

    @Test("json: every constellation's views of an epoch in one SKY (cgps draws each SKY as the whole sky)")
    func oneSkyPerEpoch() throws {
        let result = try Command.run(["replay", "--format", "json", Command.fixture("ublox-multi.nmea")])
        let objects = try result.outputLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let skies = objects.filter { $0["class"] as? String == "SKY" }
        #expect(skies.count == objects.filter { $0["class"] as? String == "TPV" }.count)
        let gnssIDs = Set(((skies.first?["satellites"] as? [[String: Any]]) ?? []).compactMap { $0["gnssid"] as? Int })
        #expect(gnssIDs.count > 1, "\(gnssIDs)")
    }

    @Test("input with no NMEA at all (empty, or another format) is said and exit 65; NMEA with no fix is said apart, exit 0")
    func noNMEA() throws {
        let empty = try Command.run(["replay", "-"], input: Data())
        #expect(empty.status == 65)
        #expect(empty.error == "nmeastream: standard input is empty: no NMEA to decode\n", "\(empty.error)")
        // A SiRF binary frame, then text.
        let binary = try Command.run(["replay", "-"], input: Data([0xA0, 0xA2, 0x00, 0x02, 0x84, 0x00, 0x00, 0x84] + Array("not nmea\n".utf8)))
        #expect(binary.status == 65)
        #expect(binary.error.contains("17 bytes from standard input but no NMEA 0183 sentence among them"), "\(binary.error)")
        // Two NAV-EOE frames: a receiver in UBX-only mode that sends no navigation message.
        let eoe: [UInt8] = [0xB5, 0x62, 0x01, 0x61, 0x04, 0x00, 0x10, 0x27, 0x00, 0x00, 0x9D, 0x7C]
        let ubx = try Command.run(["replay", "--stats", "-"], input: Data(eoe + eoe))
        #expect(ubx.status == 65)
        #expect(ubx.error.contains("2 u-blox UBX frames from standard input but no NMEA 0183 sentence and no UBX navigation message"),
                "\(ubx.error)")
        #expect(ubx.error.contains("ubx NAV-EOE 2"), "\(ubx.error)")
        // A NAV-PVT without a fix: what the receiver said.
        var pvt = [UInt8](repeating: 0, count: 92)
        pvt[0] = 0x10; pvt[1] = 0x27
        let noUBXFix = try Command.run(["replay", "-"], input: Data(TestSupport.ubx(0x01, 0x07, pvt) + eoe))
        #expect(noUBXFix.status == 0)
        #expect(noUBXFix.error.contains("2 u-blox UBX frames from standard input but no fix"), "\(noUBXFix.error)")
        let noFix = try Command.run(["replay", "-"], input: Data("$GPRMC,120000.00,V,,,,,,,050624,,,N*7B\r\n".utf8))
        #expect(noFix.status == 0)
        #expect(noFix.error.contains("1 NMEA sentence from standard input but no fix"), "\(noFix.error)")
        let fixes = try Command.run(["replay", Command.fixture("sirf-cycle.nmea")])
        #expect(fixes.status == 0 && fixes.error.isEmpty, "\(fixes.error)")
    }

    @Test("standard input gives the same output as the file")
    func standardInput() throws {
        let path = Command.fixture("ublox-multi.nmea")
        let fromFile = try Command.run(["replay", "--format", "json", path])
        let fromInput = try Command.run(["replay", "--format", "json", "-"], input: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fromInput.status == 0)
        #expect(fromInput.output == fromFile.output)
        #expect(!fromFile.output.isEmpty)
    }

    @Test("text: one readable line per fix")
    func text() throws {
        let result = try Command.run(["replay", Command.fixture("sirf-cycle.nmea")])
        #expect(result.status == 0)
        #expect(result.outputLines.count == 20)
        #expect(result.outputLines.first?.hasPrefix("2014-12-31T03:07:19.000Z  -37.7847883 175.3148967  alt 59.9 m") == true)
    }

    @Test("nmea: the valid sentences, unchanged")
    func nmea() throws {
        let result = try Command.run(["replay", "--format", "nmea", Command.fixture("hostile.bin")])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 23)
        #expect(lines.allSatisfy { $0.hasPrefix("$GP") && $0.dropLast(2).hasSuffix("*") })
    }

    @Test("--stats counts sentences and rejects by reason on standard error")
    func stats() throws {
        let result = try Command.run(["replay", "--stats", "--format", "json", Command.fixture("hostile.bin")])
        #expect(result.status == 0)
        #expect(result.error.contains("sentence GPGGA 11"))
        // Three NMEA sentences, and three UBX headers whose payloads are noise.
        #expect(result.error.contains("reject bad-checksum 6"))
        #expect(result.error.contains("reject too-long 3"))
        #expect(!result.output.contains("reject"))
    }

    @Test("an unreadable file: one clear line on standard error and exit code 66")
    func missingFile() throws {
        let result = try Command.run(["replay", "/nonexistent/drive.nmea"])
        #expect(result.status == 66)
        #expect(result.output.isEmpty)
        #expect(result.error == "nmeastream: cannot open /nonexistent/drive.nmea: no such file; check the path\n")
        let directory = try Command.run(["replay", "/tmp"])
        #expect(directory.status == 66)
        #expect(directory.error.contains("is a directory"))
    }

    @Test("a usage error exits 64")
    func usage() throws {
        let result = try Command.run(["replay", "--format", "xml", "x"])
        #expect(result.status == 64)
    }

    @Test("agrees with tpvcompare.py on a gpsd log", .enabled(if: FileManager.default.fileExists(atPath: Command.sharedCorpus.path), "../shared is absent"))
    func tpvcompare() throws {
        let log = Command.sharedCorpus.appendingPathComponent("gpsd-nmea/bu353s4.log")
        let result = try Command.run(["replay", "--format", "json", log.path])
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-bu353s4-\(getpid()).jsonl")
        try result.output.write(to: output, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: output) }
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let tool = Command.sharedCorpus.deletingLastPathComponent().appendingPathComponent("tools/tpvcompare.py").path
        python.arguments = ["python3", tool, log.path + ".chk", output.path]
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        let counts = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(counts["expected_epochs"] as? Int == 25)
        #expect(counts["matched"] as? Int == 25)
    }
}
