import Foundation
import NMEA

/// The per-log table of `Tests/KNOWN-DIFFERENCES.md`.
public struct KnownDifferences {
    /// One log's documented difference: how many epochs at most, in which fields.
    public struct Entry {
        public var epochs: Int
        public var fields: Set<String>
    }

    private static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    private static let url = testsFolder.appendingPathComponent("KNOWN-DIFFERENCES.md")

    /// `Tests/Tools/fieldcompare.py`.
    public static let fieldCompareTool = testsFolder.appendingPathComponent("Tools/fieldcompare.py")

    /// The "By field" table: for each TPV field, the epochs of the corpus that match gpsd at
    /// least (its third column).
    public static func loadFields() throws -> [String: Int] {
        var entries: [String: Int] = [:]
        var inTable = false
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("## ") { inTable = line == "## By field" }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            guard inTable, cells.count >= 4, let least = Int(cells[2]) else { continue }
            entries[cells[0]] = least
        }
        return entries
    }

    /// The table, by log name.
    public static func load() throws -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            guard cells.count >= 4, cells[0].hasSuffix(".log"), let epochs = Int(cells[1]) else { continue }
            let fields = Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            entries[cells[0]] = Entry(epochs: epochs, fields: fields)
        }
        return entries
    }
}

/// TPV objects by epoch, as tpvcompare.py keys them.
public enum TPVEpochs {
    /// 1024 weeks in milliseconds: the GPS week number's rollover, by which gpsd moves dates it
    /// takes to be from before its build.
    public static let gpsWeekRollover: Int64 = 1024 * 7 * 86_400_000

    /// The fields compared, each with its tolerance.
    public static let tolerances: [(String, Double)] = [
        ("lat", 1e-6), ("lon", 1e-6), ("altMSL", 0.01), ("altHAE", 0.01), ("speed", 0.01), ("track", 0.01),
    ]

    /// The TPVs of a gpsd `.chk` file, by epoch.
    public static func read(chk url: URL) throws -> [Int64: [String: Any]] {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        return epochs(lines: text.split(whereSeparator: \.isNewline).map(String.init))
    }

    /// The TPVs among JSON lines, by epoch (UTC milliseconds); the last of a time wins.
    public static func epochs(lines: [String]) -> [Int64: [String: Any]] {
        var result: [Int64: [String: Any]] = [:]
        for line in lines where line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["class"] as? String == "TPV", let time = object["time"] as? String,
                  let key = milliseconds(time)
            else { continue }
            result[key] = object
        }
        return result
    }

    /// The fields in which `actual` is not `expected`, within the tolerances; `mode` exactly.
    public static func mismatchedFields(expected: [String: Any], actual: [String: Any]) -> Set<String> {
        var bad = Set<String>()
        for (field, tolerance) in tolerances {
            guard let want = (expected[field] as? NSNumber)?.doubleValue else { continue }
            guard let got = (actual[field] as? NSNumber)?.doubleValue, abs(got - want) <= tolerance else {
                bad.insert(field)
                continue
            }
        }
        if let mode = expected["mode"] as? Int, actual["mode"] as? Int != mode { bad.insert("mode") }
        return bad
    }

    /// `yyyy-mm-ddThh:mm:ss[.fff]Z` as UTC milliseconds; nil for what Python's
    /// `datetime.fromisoformat` refuses (such as second 60).
    public static func milliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), second < 60,
              let date = CalendarDate(year: year, month: month, day: day)
        else { return nil }
        var millis = 0.0
        if bytes[19] == UInt8(ascii: "."), let end = bytes.firstIndex(of: UInt8(ascii: "Z")), let fraction = Double("0" + String(decoding: bytes[19..<end], as: UTF8.self)) {
            millis = fraction * 1000
        }
        let seconds = Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return seconds * 1000 + Int64(millis.rounded())
    }
}
