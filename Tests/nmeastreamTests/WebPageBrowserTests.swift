#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve --http` in a real browser: headless Chromium (Debian `chromium` and
/// `chromium-driver`) driven through Selenium (PyPI) by `Tests/Drivers/webpage.py`, on a
/// `simulate` pseudo-terminal playing the fixture. The driver reports what the page showed;
/// this test judges it. Screenshots (desktop, phone, stale) are kept in
/// `.build/test-artefacts/web-page/`.
@Suite("Live web page in Chromium", .mayBlock, .serialized)
struct WebPageBrowserTests {
    static let driver = Command.packageRoot.appendingPathComponent("Tests/Drivers/webpage.py").path
    static let artefacts = Command.packageRoot.appendingPathComponent(".build/test-artefacts/web-page").path

    /// Chromium, its driver, and Selenium for the `python3` on the PATH.
    static var hasBrowser: Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") else { return false }
        return spawnAndWait("/usr/bin/env", ["python3", "-c", "import selenium"]) == 0
    }

    /// gpsd's `gnssid` as the page names it in `data-gnss`.
    static let constellations = [0: "GPS", 1: "SBAS", 2: "Galileo", 3: "BeiDou", 4: "IMES", 5: "QZSS", 6: "GLONASS", 7: "NavIC"]

    @Test("the page shows the log's position and the last SKY's satellites, opens and closes the device, greys when the server is gone and reconnects",
          .enabled(if: hasBrowser, "chromium, chromium-driver or Selenium (pip install selenium) is missing"))
    func pageInChromium() throws {
        let report = try Self.runPage(playing: "ublox-multi.nmea")
        #expect(report["openBefore"] as? Int == 0, "no page, no watcher: the device is closed")
        #expect(report["showedFix"] as? Bool == true, "the page showed a fix")
        #expect(report["openWithPage"] as? Int == 1, "a page alone keeps the device open")

        let page = try #require(report["page"] as? [String: Any])
        let fields = try #require(page["fields"] as? [String: String])
        let tpv = try #require(report["gpsdTpv"] as? [String: Any])
        // The fixture's GGA: 5207.40740698,N, 00419.26592602,E.
        #expect(fields["lat"] == "52.123456783")
        #expect(fields["lon"] == "4.321098767")
        #expect(fields["lat"].flatMap(Double.init) == tpv["lat"] as? Double, "as a gpsd client got it")
        #expect(fields["lon"].flatMap(Double.init) == tpv["lon"] as? Double)
        #expect(fields["mode"] == "3D")
        #expect(fields["status"] == "DGPS", "the fixture's GGA quality 2: gpsd's status 2")
        #expect(fields["errors"]?.hasSuffix(" m/s") == true || fields["errors"] == "–")

        let sky = try #require(report["gpsdSky"] as? [String: Any])
        let satellites = try #require(sky["satellites"] as? [[String: Any]])
        let marks = try #require(page["marks"] as? [[String: Any]])
        #expect(marks.count == satellites.count, "one mark per satellite of the last SKY")
        let expected = Set(satellites.map { satellite in
            "\(satellite["PRN"] as? Int ?? -1) \(Self.constellations[satellite["gnssid"] as? Int ?? -1] ?? "unknown") \((satellite["used"] as? Bool) == true)"
        })
        let drawn = Set(marks.map { "\($0["prn"] as? String ?? "") \($0["gnss"] as? String ?? "") \($0["used"] as? String ?? "")" })
        #expect(drawn == expected, "PRN, constellation and data-used of each mark")
        #expect(marks.count { $0["used"] as? String == "true" } == 12, "the fixture's 12 used of 14")

        #expect(report["phoneOverflow"] as? Int == 0, "no sideways scrolling on a phone")
        // At every width people use, every value lies inside its card, and nothing scrolls
        // sideways (screenshots: width-W.png).
        let layouts = try #require(report["layouts"] as? [String: [String: Any]])
        for width in ["360", "768", "1024", "1280", "1440", "1920"] {
            let layout = try #require(layouts[width], "\(width) px measured")
            #expect(layout["overflow"] as? Int == 0, "\(width) px: sideways scrolling \(layout)")
            #expect((layout["clipped"] as? [String])?.isEmpty == true, "\(width) px: values cut or over their card's edge: \(layout)")
            #expect(FileManager.default.fileExists(atPath: Self.artefacts + "/width-\(width).png"), "width-\(width).png kept")
        }
        #expect(report["sawReconnecting"] as? Bool == true, "the page says when the server is gone")
        #expect(report["staleWhenGone"] as? Bool == true, "and greys what it shows")
        #expect(report["reconnected"] as? Bool == true, "it reconnects by itself when the server is back")
        #expect(report["openWithPageAgain"] as? Int == 1)
        #expect(report["closedAfterPage"] as? Bool == true, "the page closed: the device is closed")
        for screenshot in ["desktop.png", "phone.png", "stale.png"] {
            #expect(FileManager.default.fileExists(atPath: Self.artefacts + "/" + screenshot), "\(screenshot) kept")
        }
    }

    @Test("a receiver with GSV every fifth epoch: the sky plot keeps its satellites through the SKYs with dilutions alone between",
          .enabled(if: hasBrowser, "chromium, chromium-driver or Selenium (pip install selenium) is missing"))
    func skyBetweenViews() throws {
        // 7 s at one epoch a second: at least one round of four epochs without GSV.
        let report = try Self.runPage(playing: "sirf-cycle.nmea", driverOptions: ["--sky-only", "7"])
        #expect(report["showedFix"] as? Bool == true, "the page showed a fix")
        #expect(report["marksFewest"] as? Int == 12 && report["marksMost"] as? Int == 12, "the log's 12 satellites, never fewer: \(report)")
        let fields = try #require((report["page"] as? [String: Any])?["fields"] as? [String: String])
        #expect(fields["satellites"] == "8 used of 12 seen")
        #expect(fields["dop"] == "1.1 / 1.5 / 1.8", "HDOP / VDOP / PDOP of the log's GSA")
    }

    @Test("an RTK receiver fed corrections: the status says RTK float, with the age of its corrections",
          .enabled(if: hasBrowser, "chromium, chromium-driver or Selenium (pip install selenium) is missing"))
    func rtkStatus() throws {
        let report = try Self.runPage(playing: "rtk-float.nmea", driverOptions: ["--sky-only", "1"])
        #expect(report["showedFix"] as? Bool == true, "the page showed a fix")
        let fields = try #require((report["page"] as? [String: Any])?["fields"] as? [String: String])
        #expect(fields["status"] == "RTK float · corrections 1.2 s old", "GGA quality 5 with age 1.2: \(fields)")
    }

    @Test("a receiver whose altitude is out of range: the page marks the fix with the check it failed",
          .enabled(if: hasBrowser, "chromium, chromium-driver or Selenium (pip install selenium) is missing"))
    func integrityMark() throws {
        // rtk-float.nmea's epochs 60 km up: every fix fails the altitude check.
        let fixture = try String(contentsOfFile: Command.fixture("rtk-float.nmea"), encoding: .utf8)
        let lifted = fixture.split(whereSeparator: \.isNewline).map { line -> String in
            guard line.hasPrefix("$GNGGA"), let star = line.lastIndex(of: "*") else { return String(line) }
            let body = line[line.index(after: line.startIndex)..<star].replacingOccurrences(of: ",519.300,M,", with: ",60000.000,M,")
            return "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
        }.joined(separator: "\n") + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-lifted-\(UUID().uuidString).nmea").path
        try lifted.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try Self.runPage(playingPath: path, driverOptions: ["--sky-only", "1"])
        #expect(report["showedFix"] as? Bool == true, "the page showed a fix")
        let fields = try #require((report["page"] as? [String: Any])?["fields"] as? [String: String])
        #expect(fields["integrity"] == "⚠ altitude-range", "\(fields)")
        #expect(fields["altMSL"] == "60000.0 m")
        #expect(fields["source"] == "–", "a receiver, not a merged device")
    }

    /// Plays `fixture` through `simulate`, and has the driver open the page of a `serve` of it;
    /// returns what the driver reported.
    static func runPage(playing fixture: String, driverOptions: [String] = []) throws -> [String: Any] {
        try runPage(playingPath: Command.fixture(fixture), driverOptions: driverOptions)
    }

    /// Plays the log at `path` (see ``runPage(playing:driverOptions:)``).
    static func runPage(playingPath path: String, driverOptions: [String] = []) throws -> [String: Any] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-web-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = folder + "/gps0"
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device, path])
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        #expect(waitForChanges(to: device) { FileManager.default.fileExists(atPath: device) }, "the simulator's device")

        let reportPath = folder + "/report.json", errorPath = folder + "/driver.err"
        let browser = try ChildProcess("/usr/bin/env", ["python3", driver] + driverOptions + [
            artefacts, device, "--",
            Command.executable.path, "serve", device, "--speed", "9600", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
        ], outputPath: reportPath, errorPath: errorPath)
        let finished = browser.exits(within: 150)
        if !finished { browser.terminate() }
        let status = browser.waitForExit()
        let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        try #require(finished && status == 0, "the browser driver failed (\(status)):\n\(errors)")
        let data = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
    }
}
