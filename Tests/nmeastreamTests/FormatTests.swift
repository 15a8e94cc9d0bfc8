#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

@Suite("CSV and GPX output", .mayBlock)
struct FormatTests {
    static let gpsbabel = "/usr/bin/gpsbabel"

    /// The number of points gpsbabel reads from a GPX document's tracks.
    private func gpsbabelPoints(_ gpx: String) throws -> Int {
        try #require(FileManager.default.isExecutableFile(atPath: Self.gpsbabel), "gpsbabel is not installed (apt-get install gpsbabel)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-\(UUID().uuidString).gpx")
        try gpx.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.gpsbabel)
        process.arguments = ["-t", "-i", "gpx", "-f", file.path, "-o", "unicsv", "-F", "-"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && complaints.isEmpty, "gpsbabel: \(complaints)")
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).count - 1
    }

    @Test("replay --format csv: a header and a row per fix, with the same fixes as the JSON",
          arguments: ["sirf-cycle.nmea", "ublox-multi.nmea"])
    func csv(log: String) throws {
        let csv = try Command.run(["replay", "--format", "csv", Command.fixture(log)])
        let json = try Command.run(["replay", "--format", "json", Command.fixture(log)])
        #expect(csv.status == 0)
        let rows = csv.outputLines
        #expect(rows.first == "time,latitude_deg,longitude_deg,altitude_msl_m,altitude_hae_m,speed_mps,track_deg,climb_mps,mode,quality,satellites_used,hdop,vdop,pdop,dgps_age_s")
        #expect(rows.count - 1 == json.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.count)
        #expect(rows.dropFirst().allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == 15 })
    }

    @Test("an RTK fix in every format: what the corrections made of it (RTK float), with their age and station")
    func rtkStatus() throws {
        let log = Command.fixture("rtk-float.nmea")
        let text = try Command.run(["replay", "--format", "text", log])
        #expect(text.outputLines.last?.contains("  3d  rtk-float  corrections 1.2 s old  sats 10  hdop 0.6") == true, "\(text.output)")
        let csv = try Command.run(["replay", "--format", "csv", log])
        #expect(csv.outputLines.last?.hasSuffix(",3d,rtk-float,10,0.55,0.83,1.00,1.2") == true, "\(csv.output)")
        let json = try Command.run(["replay", "--format", "json", log])
        let tpv = try #require(json.outputLines.first { $0.hasPrefix("{\"class\":\"TPV\"") })
        #expect(tpv.contains("\"status\":4") && tpv.contains("\"dgpsAge\":1.2") && tpv.contains("\"dgpsSta\":42"), "\(tpv)")
        let gpx = try Command.run(["replay", "--format", "gpx", log])
        #expect(gpx.output.contains("<ageofdgpsdata>1.2</ageofdgpsdata>"), "\(gpx.output)")
    }

    @Test("replay --format gpx: a document gpsbabel reads, with a point per positioned fix",
          arguments: ["sirf-cycle.nmea", "ublox-multi.nmea"])
    func gpx(log: String) throws {
        let gpx = try Command.run(["replay", "--format", "gpx", Command.fixture(log)])
        #expect(gpx.status == 0)
        #expect(gpx.output.hasSuffix("</trkseg>\n</trk>\n</gpx>\n"))
        let json = try Command.run(["replay", "--format", "json", Command.fixture(log)])
        let positioned = json.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\"") && $0.contains("\"lat\":") }.count
        #expect(positioned > 0)
        #expect(try gpsbabelPoints(gpx.output) == positioned)
    }

    @Test("Ctrl-C in the middle of a live GPX stream: a complete document, exit 0")
    func interruptedGPX() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("track.gpx")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = Process()
        process.executableURL = Command.executable
        process.arguments = ["demo", "--format", "gpx", "--speed", "5"]
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for a few points, then interrupt.
        let deadline = Date().addingTimeInterval(10)
        while (try String(contentsOf: outputURL, encoding: .utf8)).components(separatedBy: "<trkpt").count < 4, Date() < deadline {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let gpx = try String(contentsOf: outputURL, encoding: .utf8)
        #expect(gpx.hasSuffix("</gpx>\n"))
        let points = gpx.components(separatedBy: "<trkpt").count - 1
        #expect(points >= 3)
        #expect(try gpsbabelPoints(gpx) == points)
    }
}

@Suite("replay's progress bar", .mayBlock)
struct ProgressBarTests {
    @Test("on a terminal, a bar on standard error; never when standard error is a file")
    func progress() throws {
        let log = try Data(contentsOf: URL(fileURLWithPath: Command.fixture("ublox-multi.nmea")))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-big-\(UUID().uuidString).nmea")
        try Data((0..<400).flatMap { _ in log }).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // `script` gives the command a terminal; what it prints on it comes back on our side.
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-qec", "'\(Command.executable.path)' replay --format json '\(file.path)' > /dev/null", "/dev/null"]
        let output = Pipe()
        script.standardOutput = output
        script.standardInput = FileHandle.nullDevice
        try script.run()
        let terminal = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0)
        #expect(terminal.contains("%  ") && terminal.contains(" MB/s"), "\(terminal.prefix(200))")
        #expect(terminal.contains("\r\u{1B}[K"), "the bar is cleared at the end")

        let plain = try Command.run(["replay", "--format", "json", file.path])
        #expect(plain.status == 0)
        #expect(plain.error.isEmpty)
    }
}
