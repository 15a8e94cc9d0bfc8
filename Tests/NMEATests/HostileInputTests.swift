import Foundation
import Testing
import TestSupport
@testable import NMEA

@Suite("Hostile input", .mayBlock)
struct HostileInputTests {
    @Test("the project's hostile fixture: every valid sentence found, every reject counted")
    func hostileFixture() throws {
        let bytes = try fixture("hostile.bin")
        let result = decode(bytes)
        #expect(result.statistics.sentences["GPGGA"] ?? 0 >= 10)
        #expect(result.statistics.sentences["GPRMC"] ?? 0 >= 10)
        #expect(result.statistics.rejects[.badChecksum] ?? 0 > 0)
        #expect(result.statistics.rejects[.tooLong] ?? 0 > 0)
        #expect(result.statistics.rejects[.bytesSkipped] ?? 0 > 0)
        // Every byte is either in a sentence (with its line end) or in a reject.
        let inSentences = result.sentences.reduce(0) { $0 + $1.utf8.count }
        // A malformed field's bytes are also its sentence's: not counted twice.
        let inRejects = result.rejects.filter { $0.fieldIndex ?? 0 == 0 }.reduce(0) { $0 + $1.byteCount }
        #expect(inSentences + inRejects <= bytes.count)
        #expect(inSentences + inRejects >= bytes.count - 2 * (result.sentences.count + result.rejects.count))
    }

    @Test("random bytes never crash, and rejects stay bounded in size")
    func randomBytes() {
        var generator = SeededGenerator(seed: 42)
        for round in 0..<50 {
            let count = Int.random(in: 0...20_000, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Salt with delimiters and NMEA-looking text so the framer's paths all run.
            for index in stride(from: 0, to: bytes.count, by: 97) { bytes[index] = UInt8(ascii: "$") }
            for index in stride(from: 50, to: bytes.count, by: 113) { bytes[index] = 0x0A }
            let result = decode(bytes, chunkSizes: [Int.random(in: 1...4096, using: &generator)])
            #expect(result.rejects.allSatisfy { $0.bytes.count <= 256 }, "round \(round)")
        }
    }

    @Test("a truncated, altered or shortened sentence is never accepted")
    func corrupted() throws {
        let lines = String(decoding: try fixture("ublox-multi.nmea"), as: UTF8.self).split(separator: "\r\n").map(String.init)
        var generator = SeededGenerator(seed: 7)
        for line in lines.prefix(40) {
            let original = Array(line.utf8)
            let star = original.lastIndex(of: UInt8(ascii: "*"))!
            for _ in 0..<50 {
                var bytes = original
                let position = Int.random(in: 1..<star, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    bytes = Array(bytes.prefix(Int.random(in: 1..<bytes.count, using: &generator)))
                case 1:
                    // XOR detects every single-byte change in the body.
                    var replacement: UInt8
                    repeat {
                        replacement = UInt8.random(in: 0x20...0x7E, using: &generator)
                    } while replacement == bytes[position] || replacement == UInt8(ascii: "$")
                        || replacement == UInt8(ascii: "*") || replacement == UInt8(ascii: "!")
                    bytes[position] = replacement
                default:
                    bytes.remove(at: position)
                }
                let result = decode(bytes + [0x0D, 0x0A])
                #expect(result.sentences.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
                #expect(result.fixes.isEmpty)
                #expect(!result.rejects.isEmpty)
            }
        }
    }

    @Test("every file of gpsd-mixed decodes without crashing, bounded", .enabled(if: Corpus.isAvailable, "../shared/corpus is absent"))
    func mixedCorpus() throws {
        let files = try Corpus.logs(in: "gpsd-mixed")
        #expect(!files.isEmpty)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            let result = decode(bytes, chunkSizes: [4096, 1, 17, 65_536])
            #expect(result.rejects.allSatisfy { $0.bytes.count <= 256 }, "\(file.lastPathComponent)")
            let accounted = result.statistics.bytes
            #expect(accounted == bytes.count)
        }
    }
}
