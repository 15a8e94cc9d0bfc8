import Foundation
import Testing
import TestSupport
@testable import NMEA

/// Corrupts one ancillary field of every sentence of every corpus log (a field that bears on
/// neither the time, the position nor the mode of a fix), and checks that the fixes keep their
/// time, position and mode, and that exactly the corrupted fields are reported, each after its
/// own sentence. Nothing here knows the logs: the fields come from the sentence formats.
@Suite("Field mutation", .mayBlock, .enabled(if: Corpus.isAvailable, "../shared/corpus is absent: mutation test not run"))
struct FieldMutationTests {
    /// The fields of each sentence type that carry neither time, position, an indicator of the
    /// fix, the altitude (which makes a fix 3D) nor what says where the other fields are (GSA's
    /// last field, GSV's signal ID, VTG's unit letters).
    static let ancillaryFields: [String: [Int]] = [
        "GGA": [7, 8, 11, 12, 13, 14],
        "RMC": [7, 8, 10, 11, 13],
        "GSA": [1, 3, 4, 5, 6],
        "GSV": [3, 4, 5, 6, 7],
        "VTG": [1, 3, 5, 7, 9],
        "ZDA": [5, 6],
        "GST": [2, 3, 4, 5, 6, 7, 8],
        "GBS": [2, 3, 4, 5, 6, 7, 8],
        "GNS": [7, 8, 10, 11, 12, 13],
        "HDT": [1],
        "DTM": [3, 4, 5, 6, 7],
        "TXT": [1, 2, 3],
    ]
    /// Never a valid value of any field above, whatever its type.
    static let corruptions = ["#x", "1.2.3", "--", "x?", "+-1"]

    @Test("one corrupted ancillary field per sentence: the same fixes, exactly that field reported", arguments: [1, 2, 3] as [UInt64])
    func corruptedFields(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var cases = 0
        for log in try Corpus.logs(in: "gpsd-nmea") {
            let name = log.lastPathComponent
            let lines = String(decoding: try Data(contentsOf: log), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            var mutatedLines: [String] = []
            // In order, each checksum-valid line as it is in the mutated log, and the field corrupted.
            var sentences: [(text: String, field: Int?)] = []
            for line in lines.map(String.init) {
                guard let (mutated, field) = Self.mutate(line, using: &generator) else {
                    mutatedLines.append(line)
                    continue
                }
                mutatedLines.append(mutated)
                sentences.append((mutated.trimmingCharacters(in: .whitespacesAndNewlines), field))
                if field != nil { cases += 1 }
            }
            let original = Self.run(Array(try Data(contentsOf: log)))
            let mutated = Self.run(Array(mutatedLines.joined(separator: "\n").utf8))

            #expect(mutated.fixes.count == original.fixes.count, "\(name): fix count")
            for (index, (before, after)) in zip(original.fixes, mutated.fixes).enumerated() {
                #expect(after.time == before.time && after.timeOfDay == before.timeOfDay, "\(name): fix \(index) time")
                #expect(after.latitude == before.latitude && after.longitude == before.longitude, "\(name): fix \(index) position")
                #expect(after.mode == before.mode, "\(name): fix \(index) at \(before.timeOfDay.map { "\($0)" } ?? "-") mode")
            }

            // Which sentence event is which corrupted line: the texts in order.
            var expected = original.fieldRejects
            var next = 0
            for (event, text) in mutated.sentenceTexts.enumerated() {
                guard let found = sentences[next...].firstIndex(where: { $0.text == text }) else { continue }
                if let field = sentences[found].field { expected.insert(FieldReject(sentence: event, field: field)) }
                next = found + 1
            }
            let missing = expected.subtracting(mutated.fieldRejects)
            let extra = mutated.fieldRejects.subtracting(expected)
            let describe = { (reject: FieldReject) in "field \(reject.field) of \(mutated.sentenceTexts[reject.sentence])" }
            #expect(missing.isEmpty, "\(name): \(missing.count) corrupted fields not reported, first \(missing.first.map(describe) ?? "")")
            #expect(extra.isEmpty, "\(name): \(extra.count) other fields reported, first \(extra.first.map(describe) ?? "")")
        }
        print("field mutation, seed \(seed): \(cases) sentences with one field corrupted")
        #expect(cases > 5000, "only \(cases) corrupted sentences")
    }

    /// A malformed-field reject: the index of its sentence among the sentence events, and the field.
    struct FieldReject: Hashable {
        var sentence: Int
        var field: Int
    }

    struct Outcome {
        var fixes: [Fix] = []
        var sentenceTexts: [String] = []
        var fieldRejects: Set<FieldReject> = []
    }

    static func run(_ bytes: [UInt8]) -> Outcome {
        let decoder = NMEADecoder()
        var outcome = Outcome()
        let handle: (NMEADecoder.Event) -> Void = { event in
            switch event {
            case .sentence(let raw): outcome.sentenceTexts.append(raw.text)
            case .epoch(let epoch): if let fix = epoch.fix { outcome.fixes.append(fix) }
            case .ubx: break
            case .rejected(let reject):
                guard reject.reason == .malformedField, let field = reject.fieldIndex, field > 0 else { break }
                outcome.fieldRejects.insert(FieldReject(sentence: outcome.sentenceTexts.count - 1, field: field))
            }
        }
        bytes.withUnsafeBytes { decoder.feed($0, handle) }
        decoder.finish(handle)
        return outcome
    }

    /// The line with one ancillary field corrupted and its checksum made right again, and the
    /// field's index (`nil` when its type has no ancillary field there); `nil` for a line that
    /// is not a checksum-valid talker sentence.
    static func mutate(_ line: String, using generator: inout SeededGenerator) -> (String, Int?)? {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("$"), let star = text.lastIndex(of: "*") else { return nil }
        let body = String(text[text.index(after: text.startIndex)..<star])
        let checksum = text[text.index(after: star)...]
        guard checksum.count == 2, UInt8(checksum, radix: 16) == body.utf8.reduce(0, ^) else { return nil }
        var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let address = fields[0]
        guard address.count == 5, !address.hasPrefix("P"), let candidates = ancillaryFields[String(address.suffix(3))] else {
            return (text, nil)
        }
        let usable = candidates.filter { $0 < fields.count }
        guard let field = usable.randomElement(using: &generator) else { return (text, nil) }
        fields[field] = corruptions.randomElement(using: &generator)!
        let newBody = fields.joined(separator: ",")
        let sum = String(newBody.utf8.reduce(UInt8(0), ^), radix: 16, uppercase: true)
        return ("$" + newBody + "*" + (sum.count == 1 ? "0" + sum : sum), field)
    }
}
