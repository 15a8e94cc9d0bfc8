import Foundation
import Testing
import TestSupport
@testable import NMEA

@Suite("Chunking", .mayBlock)
struct ChunkingTests {
    /// The same input split any way gives the same sentences, fixes and rejects.
    @Test("random splits give identical output", arguments: ["sirf-cycle.nmea", "ublox-multi.nmea", "hostile.bin"])
    func randomSplits(name: String) throws {
        let bytes = try fixture(name)
        let whole = decode(bytes)
        var generator = SeededGenerator(seed: 0x6E6D_6561)
        for round in 0..<200 {
            let sizes = (0..<16).map { _ in Int.random(in: 1...(round % 2 == 0 ? 7 : 300), using: &generator) }
            let split = decode(bytes, chunkSizes: sizes)
            #expect(split.sentences == whole.sentences, "round \(round) sizes \(sizes)")
            #expect(split.fixes == whole.fixes, "round \(round)")
            #expect(split.views == whole.views, "round \(round)")
            #expect(split.rejects.map(\.reason) == whole.rejects.map(\.reason), "round \(round)")
            #expect(split.rejects.map(\.byteCount).reduce(0, +) == whole.rejects.map(\.byteCount).reduce(0, +))
        }
    }

    @Test("byte by byte gives identical output")
    func byteByByte() throws {
        for name in ["sirf-cycle.nmea", "ublox-multi.nmea", "hostile.bin"] {
            let bytes = try fixture(name)
            let whole = decode(bytes)
            let split = decode(bytes, chunkSizes: [1])
            #expect(split.sentences == whole.sentences)
            #expect(split.fixes == whole.fixes)
            #expect(split.rejects.map(\.reason) == whole.rejects.map(\.reason))
        }
    }
}

@Suite("Chunking, UBX", .mayBlock)
struct UBXChunkingTests {
    /// NMEA and UBX for the same cycles, with a corrupted frame and noise between them.
    static var mixed: [UInt8] {
        var bytes: [UInt8] = []
        for second in 0..<6 {
            let time = "1130\(18 + second).00"
            bytes += UBXEpochTests.pvt(after: second) + UBXEpochTests.sat(after: second) + UBXEpochTests.sig(after: second)
            bytes += Array(nmea("GNGGA,\(time),5130.000,N,00007.407,W,1,12,1.0,24.5,M,45.7,M,,").utf8)
            if second == 3 {
                var corrupted = UBXEpochTests.dop(after: second)
                corrupted[9] ^= 0x40
                bytes += corrupted + [0xB5, 0x62, 0x01, 0xFF, 0x20, 0x00, 0x00]
            }
            bytes += UBXEpochTests.dop(after: second) + UBXEpochTests.eoe(after: second)
        }
        return bytes
    }

    @Test("NMEA and UBX together, split anywhere: the same frames, fixes, skies and rejects as whole")
    func mixedSplits() {
        let bytes = Self.mixed
        let whole = decode(bytes)
        #expect(whole.fixes.count == 6 && whole.frames.count == 30 && !whole.rejects.isEmpty)
        var generator = SeededGenerator(seed: 0x7562_7821)
        for round in 0..<200 {
            let sizes = (0..<16).map { _ in Int.random(in: 1...(round % 2 == 0 ? 9 : 400), using: &generator) }
            let split = decode(bytes, chunkSizes: sizes)
            #expect(split.frames == whole.frames, "round \(round) sizes \(sizes)")
            #expect(split.sentences == whole.sentences, "round \(round)")
            #expect(split.fixes == whole.fixes, "round \(round)")
            #expect(split.epochs.map(\.sky) == whole.epochs.map(\.sky), "round \(round)")
            #expect(split.rejects.map(\.reason) == whole.rejects.map(\.reason), "round \(round)")
        }
    }

    @Test("gpsd's u-blox logs, split anywhere: the same fixes and skies as whole",
          .enabled(if: Corpus.isAvailable, "../shared/corpus is absent"))
    func corpusSplits() throws {
        let logs = try Corpus.logs(in: "gpsd-mixed").filter { $0.lastPathComponent.hasPrefix("ublox-") }
        #expect(logs.count >= 10)
        var generator = SeededGenerator(seed: 0x6C6F_6773)
        for log in logs {
            let bytes = Array(try Data(contentsOf: log))
            let whole = decode(bytes)
            for round in 0..<4 {
                let sizes = (0..<16).map { _ in Int.random(in: 1...(round % 2 == 0 ? 13 : 2000), using: &generator) }
                let split = decode(bytes, chunkSizes: sizes)
                #expect(split.fixes == whole.fixes, "\(log.lastPathComponent) round \(round) sizes \(sizes)")
                #expect(split.epochs.map(\.sky) == whole.epochs.map(\.sky), "\(log.lastPathComponent) round \(round)")
                #expect(split.frames.count == whole.frames.count, "\(log.lastPathComponent) round \(round)")
            }
        }
    }
}
