import Foundation
import Testing
import TestSupport
@testable import NMEA
import NMEARendering

/// Replays every log of `../shared/corpus/gpsd-nmea` and compares each epoch's TPV with gpsd's
/// `.chk` the way `../shared/tools/tpvcompare.py` does: epochs keyed by time (UTC
/// milliseconds), the last TPV of a time is the fix; lat/lon within 1e-6 degree, altMSL and
/// altHAE within 1 cm, speed within 1 cm/s, track within 0.01 degree, mode exact.
@Suite("gpsd conformance", .mayBlock, .enabled(if: Corpus.isAvailable, "../shared/corpus is absent: conformance not checked"))
struct CorpusConformanceTests {
    @Test("at least 95% of gpsd's epochs match, and every other one is a documented difference")
    func conformance() throws {
        let result = try Self.compare(try Corpus.logs(in: "gpsd-nmea"))
        print("""
            conformance: \(result.matched)/\(result.expected) epochs match gpsd (\(percent(result.strict))); with gpsd's \
            model-only altHAE (\(result.geoidOnly) epochs) and 1024-week date shift (\(result.dateShifted) epochs) set aside: \
            \(percent(result.comparable))
            """)
        #expect(result.expected > 1500)
        #expect(result.comparable >= 0.95, "only \(percent(result.comparable)) of gpsd's epochs match")
        #expect(result.unexplained.isEmpty, "differences not in Tests/KNOWN-DIFFERENCES.md:\n\(result.unexplained.joined(separator: "\n"))")
    }

    /// gpsd decodes u-blox's binary protocol in these logs (UBX alone, or UBX beside NMEA): the
    /// same comparison, epoch by epoch, on every `ublox-*` log of `gpsd-mixed`.
    @Test("u-blox logs (UBX, alone or beside NMEA): at least 88% of gpsd's epochs match, every other one a documented difference")
    func ubloxConformance() throws {
        let logs = try Corpus.logs(in: "gpsd-mixed").filter {
            $0.lastPathComponent.hasPrefix("ublox-") && FileManager.default.fileExists(atPath: $0.path + ".chk")
        }
        let result = try Self.compare(logs)
        print("""
            u-blox conformance: \(result.matched)/\(result.expected) epochs of \(logs.count) logs match gpsd \
            (\(percent(result.strict))); with gpsd's model-only altitudes (\(result.geoidOnly) epochs) set aside: \
            \(percent(result.comparable))
            """)
        #expect(logs.count >= 9)
        #expect(result.comparable >= 0.88, "only \(percent(result.comparable)) of gpsd's epochs match")
        #expect(result.unexplained.isEmpty, "differences not in Tests/KNOWN-DIFFERENCES.md:\n\(result.unexplained.joined(separator: "\n"))")
    }

    /// What comparing logs with their `.chk` found.
    struct Comparison {
        var expected = 0
        var matched = 0
        var geoidOnly = 0
        var dateShifted = 0
        var setAside = 0
        var unexplained: [String] = []

        var strict: Double { Double(matched) / Double(max(expected, 1)) }
        var comparable: Double { Double(matched + setAside) / Double(max(expected, 1)) }
    }

    /// Compares each log's epochs with gpsd's; a log's differences are explained when its row
    /// in Tests/KNOWN-DIFFERENCES.md allows as many epochs and those fields.
    static func compare(_ logs: [URL]) throws -> Comparison {
        let known = try KnownDifferences.load()
        var result = Comparison()
        for log in logs {
            let name = log.lastPathComponent
            let expected = try TPVEpochs.read(chk: log.appendingPathExtension("chk"))
            let actual = TPVEpochs.replay(Array(try Data(contentsOf: log)))
            var differences: [(time: Int64, fields: Set<String>)] = []
            for (time, want) in expected {
                // gpsd moves a date it takes to be from before its build forward by 1024 weeks.
                let shifted = actual[time] == nil && actual[time - Self.gpsWeekRollover] != nil
                guard let got = actual[time] ?? actual[time - Self.gpsWeekRollover] else {
                    differences.append((time, ["time"]))
                    continue
                }
                let bad = TPVEpochs.mismatchedFields(expected: want, actual: got)
                // The receiver gave one altitude and no geoid separation; gpsd made the other
                // from its own geoid table (NMEA's GGA: above the ellipsoid; UBX's NAV-SOL: above
                // sea level).
                let modelOnly = got["geoidSep"] == nil
                    && (bad == ["altHAE"] && got["altHAE"] == nil && want["geoidSep"] != nil
                        || bad == ["altMSL"] && got["altMSL"] == nil && got["altHAE"] != nil)
                if bad.isEmpty && !shifted {
                    result.matched += 1
                } else if bad.isEmpty || modelOnly {
                    if modelOnly { result.geoidOnly += 1 }
                    if shifted { result.dateShifted += 1 }
                    result.setAside += 1
                } else {
                    differences.append((time, shifted ? bad.union(["time"]) : bad))
                }
            }
            result.expected += expected.count
            guard !differences.isEmpty else { continue }
            let fields = differences.reduce(into: Set<String>()) { $0.formUnion($1.fields) }
            if let entry = known[name], differences.count <= entry.epochs, fields.isSubset(of: entry.fields) {
                continue
            }
            result.unexplained.append("\(name): \(differences.count) epochs differ in \(fields.sorted()) (first at \(differences.map(\.time).min()!))")
        }
        return result
    }

    /// Every TPV field beyond those `tpvcompare.py` checks, compared by `Tests/Tools/fieldcompare.py`
    /// (the tool a user runs on their own logs) over the whole corpus; each field must match in
    /// at least as many epochs as the "By field" table of `Tests/KNOWN-DIFFERENCES.md` says,
    /// which gives the reason for the rest.
    @Test("field by field, every TPV field gpsd's clients read matches gpsd's as often as Tests/KNOWN-DIFFERENCES.md says",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "python3 is not installed"))
    func fieldByField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-fields-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var arguments = [KnownDifferences.fieldCompareTool.path]
        for log in try Corpus.logs(in: "gpsd-nmea") {
            let output = folder.appendingPathComponent(log.lastPathComponent + ".jsonl")
            try Data(TPVEpochs.render(Array(try Data(contentsOf: log))).utf8).write(to: output)
            arguments += [log.appendingPathExtension("chk").path, output.path]
        }
        let report = folder.appendingPathComponent("report.json")
        let tool = try ChildProcess("/usr/bin/python3", arguments + ["--json"], outputPath: report.path)
        try #require(tool.waitForExit() == 0, "fieldcompare.py failed")
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: [String: Int]])
        let table = try KnownDifferences.loadFields()
        for (field, row) in counts.sorted(by: { $0.key < $1.key }) {
            let matched = row["match"] ?? 0, reported = row["gpsd"] ?? 0
            print("field \(field): \(matched) of gpsd's \(reported) match; \(row["differ"] ?? 0) differ, \(row["missing"] ?? 0) missing, \(row["extra"] ?? 0) only ours")
            guard let least = table[field] else {
                Issue.record("\(field) has no row in the By field table of Tests/KNOWN-DIFFERENCES.md")
                continue
            }
            #expect(matched >= least, "\(field): \(matched) of \(reported) epochs match gpsd, the table says at least \(least)")
        }
    }

    /// gpsd keeps the dilutions it computed until a cycle clears them, so a `SKY` can carry the
    /// geometry of an earlier sky: each of gpsd's is checked against this sky's geometry, then
    /// against the earlier skies' of the same log.
    @Test("the dilutions computed from a sky's geometry are gpsd's: each SKY where gpsd computed them has this sky's or an earlier one's")
    func geometryDilutions() throws {
        var fresh = 0, earlier = 0, other = 0, doubleCounted = 0
        for log in try Corpus.logs(in: "gpsd-nmea") {
            let text = String(decoding: try Data(contentsOf: log.appendingPathExtension("chk")), as: UTF8.self)
            var computed: [[Double]] = []
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(#"{"class":"SKY""#) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let listed = object["satellites"] as? [[String: Any]],
                      let theirs = ["xdop", "ydop", "tdop", "gdop"].map({ object[$0] as? Double }) as [Double?]?,
                      theirs.allSatisfy({ $0 != nil })
                else { continue }
                let satellites = listed.map { entry in
                    Satellite(id: (entry["gnssid"] as? Int).flatMap(Constellation.init(rawValue:)).map {
                                  SatelliteID(constellation: $0, svid: entry["svid"] as? Int ?? 0)
                              },
                              nmeaID: entry["PRN"] as? Int ?? 0, elevation: entry["el"] as? Double,
                              azimuth: entry["az"] as? Double, used: entry["used"] as? Bool ?? false)
                }
                let gpsd = theirs.compactMap { $0 }
                func same(_ ours: [Double]) -> Bool {
                    zip(ours, gpsd).allSatisfy { abs(($0 * 100).rounded() / 100 - $1) < 0.011 }
                }
                let ours = Sky(views: [SatelliteView(talker: .combined, satellites: satellites)]).geometry
                    .map { [$0.x, $0.y, $0.time, $0.geometric] }
                // gpsd counts a satellite heard on two signals twice; nmeastream once.
                let used = satellites.filter(\.used).compactMap(\.id)
                if Set(used).count != used.count {
                    doubleCounted += 1
                } else if let ours, same(ours) {
                    fresh += 1
                } else if computed.contains(where: same) {
                    earlier += 1
                } else {
                    other += 1
                }
                if let ours { computed.append(ours) }
            }
        }
        let compared = fresh + earlier + other
        print("""
            geometry dilutions: of \(compared) SKYs where gpsd computed them, \(fresh) have this sky's, \(earlier) an \
            earlier sky's, \(other) neither; \(doubleCounted) left out (a satellite on two signals, which gpsd counts twice)
            """)
        #expect(compared > 1000)
        #expect(fresh * 3 > compared, "only \(fresh) of \(compared) match this sky's geometry")
        #expect(other * 100 <= compared, "\(other) of \(compared) match no geometry")
    }

    private static let gpsWeekRollover = TPVEpochs.gpsWeekRollover

    private func percent(_ value: Double) -> String { "\((value * 1000).rounded() / 10)%" }
}

extension TPVEpochs {
    /// Decodes a log with nmeastream and writes each epoch as gpsd JSON lines (SKY, then TPV),
    /// as `nmeastream replay --format json` does.
    static func render(_ bytes: [UInt8]) -> String {
        let decoder = NMEADecoder()
        var text = ""
        var writer = JSONWriter()
        let handle: (NMEADecoder.Event) -> Void = { event in
            guard case .epoch(let epoch) = event else { return }
            GPSDJSON.write(epoch, reusing: &writer) { _, report in
                text += String(decoding: report.bytes, as: UTF8.self) + "\n"
            }
        }
        bytes.withUnsafeBytes { decoder.feed($0, handle) }
        decoder.finish(handle)
        return text
    }

    /// Decodes a log with nmeastream and reads its TPV output back as JSON.
    static func replay(_ bytes: [UInt8]) -> [Int64: [String: Any]] {
        let decoder = NMEADecoder()
        var lines: [String] = []
        var writer = JSONWriter()
        let handle: (NMEADecoder.Event) -> Void = { event in
            guard let fix = event.fix else { return }
            writer.reset()
            GPSDJSON.writeTPV(fix, to: &writer)
            lines.append(String(decoding: writer.bytes, as: UTF8.self))
        }
        bytes.withUnsafeBytes { decoder.feed($0, handle) }
        decoder.finish(handle)
        return epochs(lines: lines)
    }
}
