import Foundation
import Testing
import TestSupport

/// `replay --integrity` on a real receiver's log (a boat under way, bundg_zeus_9 from the
/// corpus), clean and with made faults injected from one epoch on: a spoofed jump, a time
/// step, uniform C/N0 and jammed signals are each flagged on that epoch or the next, and
/// nothing before it.
@Suite("replay --integrity", .mayBlock, .enabled(if: Corpus.isAvailable, "../shared/corpus is not beside the project"))
struct IntegrityCommandTests {
    static let log = Corpus.root.appendingPathComponent("gpsd-nmea/bundg_zeus_9.log")

    /// The log's lines, and the time of day (hhmmss) of its 60th fix: where faults begin.
    static func lines() throws -> (lines: [String], start: String) {
        let lines = try String(contentsOf: log, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        let fixes = lines.filter { $0.hasPrefix("$GPRMC,") && $0.split(separator: ",", omittingEmptySubsequences: false)[2] == "A" }
        let start = String(fixes[60].split(separator: ",")[1])
        return (lines, start)
    }

    /// `lines` with `change` applied to the fields of every sentence from the first one of time
    /// `start` on, checksums made again.
    static func inject(_ lines: [String], from start: String, _ change: (String, inout [String]) -> Void) -> String {
        var started = false
        return lines.map { line -> String in
            guard line.hasPrefix("$"), let star = line.lastIndex(of: "*") else { return line }
            var fields = line[line.index(after: line.startIndex)..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let type = String(fields[0].suffix(3))
            if ["GGA", "RMC", "ZDA"].contains(type), fields[1] == start { started = true }
            guard started else { return line }
            change(type, &fields)
            let body = fields.joined(separator: ",")
            let sum = body.utf8.reduce(UInt8(0), ^)
            return "$" + body + "*" + String(format: "%02X", sum)
        }.joined(separator: "\n") + "\n"
    }

    /// The log's TPVs: each one's time of day (hhmmss) and integrity list; and the errors said.
    static func replay(_ text: String) throws -> (reports: [(time: String, integrity: [String])], error: String) {
        let result = try Command.run(["replay", "--integrity", "--format", "json", "-"], input: Data(text.utf8))
        #expect(result.status == 0, "\(result.error)")
        let reports = result.outputLines.compactMap { line -> (String, [String])? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["class"] as? String == "TPV", let time = object["time"] as? String else { return nil }
            let clock = time.split(separator: "T")[1].prefix(8).replacingOccurrences(of: ":", with: "")
            return (clock, object["integrity"] as? [String] ?? [])
        }
        return (reports, result.error)
    }

    /// Adds `minutes` to a latitude's ddmm.mmmm.
    static func shift(_ latitude: String, minutes: Double) -> String {
        guard let value = Double(latitude) else { return latitude }
        return String(format: "%.4f", value + minutes)
    }

    @Test("The log as recorded: nothing flagged")
    func clean() throws {
        let (lines, _) = try Self.lines()
        let (reports, error) = try Self.replay(lines.joined(separator: "\n") + "\n")
        #expect(reports.count > 100)
        #expect(reports.allSatisfy { $0.integrity.isEmpty })
        #expect(!error.contains("integrity:"), "\(error)")
    }

    @Test("Made faults from one epoch on are flagged on that epoch or the next, and not before",
          arguments: ["position-jump", "time-step", "uniform-cn0", "signal-loss"])
    func injected(_ kind: String) throws {
        let (lines, start) = try Self.lines()
        let text = Self.inject(lines, from: start) { type, fields in
            switch (kind, type) {
            case ("position-jump", "GGA"): fields[2] = Self.shift(fields[2], minutes: 0.54)    // 1 km north
            case ("position-jump", "RMC"): fields[3] = Self.shift(fields[3], minutes: 0.54)
            case ("position-jump", "GLL"): fields[1] = Self.shift(fields[1], minutes: 0.54)
            case ("time-step", "GGA"), ("time-step", "RMC"), ("time-step", "ZDA"):
                fields[1] = Self.later(fields[1], seconds: 60)
            case ("time-step", "GLL") where fields.count > 5: fields[5] = Self.later(fields[5], seconds: 60)
            case ("uniform-cn0", "GSV"), ("signal-loss", "GSV"):
                var index = 7
                var flip = false
                while index < fields.count {
                    if !fields[index].isEmpty {
                        fields[index] = kind == "signal-loss" ? "10" : (flip ? "46" : "45")
                        flip.toggle()
                    }
                    index += 4
                }
            default: break
            }
        }
        let (reports, error) = try Self.replay(text)
        let first = try #require(reports.firstIndex { Self.later($0.time, seconds: 0) >= (kind == "time-step" ? Self.later(start, seconds: 60) : start) })
        #expect(reports[..<first].allSatisfy { $0.integrity.isEmpty }, "flagged before the fault")
        let flagged = reports[first...].prefix(2).contains { $0.integrity.contains(kind) }
        #expect(flagged, "\(kind) from \(start): \(reports[first...].prefix(3).map { "\($0.time) \($0.integrity)" })")
        #expect(error.contains("integrity: \(kind)"), "\(error)")
    }

    @Test("Without --integrity, replay checks nothing: the same injected jump is not flagged, and nothing is said")
    func offByDefault() throws {
        let (lines, start) = try Self.lines()
        let text = Self.inject(lines, from: start) { type, fields in
            if type == "RMC" { fields[3] = Self.shift(fields[3], minutes: 0.54) }
            if type == "GGA" { fields[2] = Self.shift(fields[2], minutes: 0.54) }
        }
        let result = try Command.run(["replay", "--format", "json", "-"], input: Data(text.utf8))
        #expect(result.status == 0)
        #expect(result.outputLines.contains { $0.contains("\"class\":\"TPV\"") })
        #expect(!result.output.contains("\"integrity\"") && !result.error.contains("integrity:"))
    }

    @Test("--integrity-limit moves a limit: with 5 km of jump noise allowed, the 1 km jump is not flagged; a bad key is refused")
    func limits() throws {
        let (lines, start) = try Self.lines()
        let text = Self.inject(lines, from: start) { type, fields in
            if type == "RMC" { fields[3] = Self.shift(fields[3], minutes: 0.54) }
            if type == "GGA" { fields[2] = Self.shift(fields[2], minutes: 0.54) }
        }
        let result = try Command.run(["replay", "--integrity", "--integrity-limit", "jump-noise=5000", "--format", "json", "-"],
                                     input: Data(text.utf8))
        #expect(result.status == 0)
        #expect(!result.output.contains("position-jump") && !result.error.contains("position-jump"), "\(result.error)")
        let refused = try Command.run(["replay", "--integrity", "--integrity-limit", "jump-nois=5000", "-"], input: Data())
        #expect(refused.status == 64 && refused.error.contains("jump-noise=N"), "\(refused.error)")
    }

    @Test("limits that make no sense are usage errors, never a crash: a minimum above the maximum, a negative speed, a value past any use")
    func limitsChecked() throws {
        let (lines, _) = try Self.lines()
        let log = Data(lines.joined(separator: "\r\n").utf8)
        for limits in [["max-altitude=-600"], ["min-altitude=100", "max-altitude=50"], ["max-speed=-1"], ["time-tolerance=1e300"],
                       ["uniform-satellites=1e30"]] {
            let arguments = ["replay", "--integrity"] + limits.flatMap { ["--integrity-limit", $0] } + ["--format", "json", "-"]
            let refused = try Command.run(arguments, input: log)
            #expect(refused.status == 64, "\(limits): \(refused.status) \(refused.error)")
            let serve = try Command.run(["serve", "/dev/null"] + limits.flatMap { ["--integrity-limit", $0] }, input: Data())
            #expect(serve.status == 64, "\(limits): \(serve.status) \(serve.error)")
        }
        // At the edge of what is allowed: every 3D fix flagged, nothing trapped.
        let edge = try Command.run(["replay", "--integrity", "--integrity-limit", "max-altitude=-500", "--format", "json", "-"], input: log)
        #expect(edge.status == 0 && edge.output.contains("altitude-range"), "\(edge.error)")
    }

    /// hhmmss(.sss) plus `seconds`, within the day, in the same form.
    static func later(_ time: String, seconds: Int) -> String {
        guard time.count >= 6, let hours = Int(time.prefix(2)), let minutes = Int(time.dropFirst(2).prefix(2)),
              let secondsNow = Int(time.dropFirst(4).prefix(2)) else { return time }
        let total = (hours * 3600 + minutes * 60 + secondsNow + seconds) % 86_400
        return String(format: "%02d%02d%02d", total / 3600, total / 60 % 60, total % 60) + time.dropFirst(6)
    }
}
