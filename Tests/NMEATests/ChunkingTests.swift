import Testing
@testable import NMEA

@Suite("Chunking")
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
