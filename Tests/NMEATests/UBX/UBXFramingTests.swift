@testable import NMEA
import TestSupport
import Testing

@Suite("UBX framing", .mayBlock)
struct UBXFramingTests {
    let gga = nmea("GPGGA,092750.000,5321.6802,N,00630.3372,W,1,08,1.03,61.7,M,55.2,M,,")
    let rmc = nmea("GPRMC,092750.000,A,5321.6802,N,00630.3372,W,0.02,31.66,280511,,,A")
    let eoe = ubx(0x01, 0x61, [0x10, 0x27, 0x00, 0x00])

    @Test("a frame among sentences is handed out between them, in input order")
    func frameAmongSentences() {
        let bytes = Array(gga.utf8) + eoe + Array(rmc.utf8)
        let decoded = decode(bytes)
        #expect(decoded.sentences.count == 2)
        #expect(decoded.frames == [eoe])
        #expect(decoded.rejects.isEmpty)
        #expect(decoded.statistics.ubxFrames == [UBXMessageKind(messageClass: 0x01, messageID: 0x61): 1])
    }

    @Test("the events do not depend on where the input is split", arguments: [1, 2, 3, 5, 7, 13, 64])
    func chunkedLikeWhole(size: Int) {
        let noise: [UInt8] = [0x00, 0xB5, 0x13, 0xB5, 0x62, 0x99]   // a lone sync byte, a false start
        let bytes = noise + eoe + Array(gga.utf8) + ubx(0x0A, 0x04, Array(repeating: 0x24, count: 40)) + eoe
            + Array(rmc.utf8) + [0xB5]
        let whole = decode(bytes)
        let chunked = decode(bytes, chunkSizes: [size])
        #expect(chunked.sentences == whole.sentences)
        #expect(chunked.frames == whole.frames)
        #expect(chunked.rejects == whole.rejects)
        #expect(whole.frames.count == 3)
        #expect(whole.sentences.count == 2)
    }

    @Test("a frame whose checksum fails is reported by its sync bytes, and what follows them is read again")
    func badChecksum() {
        var frame = ubx(0x01, 0x07, Array(repeating: 0, count: 92))
        frame[frame.count - 1] ^= 0xFF
        let bytes = frame + Array(gga.utf8)
        let decoded = decode(bytes)
        let bad = decoded.rejects.first { $0.reason == .badChecksum }
        #expect(bad?.address == "NAV-PVT")
        #expect(bad?.byteCount == 2)
        #expect(decoded.frames.isEmpty)
        #expect(decoded.sentences.count == 1)
        // Every byte counted once: the two sync bytes, the rest skipped, then the sentence.
        let rejected = decoded.statistics.rejectedBytes.values.reduce(0, +)
        #expect(rejected == frame.count)
    }

    @Test("a false start in noise, with a long length, swallows no sentence", arguments: [0, 1, 7])
    func falseStartHidesNothing(split: Int) {
        // B5 62, then a "length" of 0x0200: the sentences that follow are read again once the
        // frame proves false, or when the input ends before it.
        let bytes: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x02] + Array((gga + rmc).utf8)
        let decoded = decode(bytes, chunkSizes: split == 0 ? [65_536] : [split])
        #expect(decoded.sentences.count == 2)
        #expect(decoded.frames.isEmpty)
    }

    @Test("made-up headers claiming 8 KB each cost bounded work, the same however the input is split, and a real frame after them is found")
    func falseStartsBounded() {
        // 768 KB of headers whose length claims 8191 bytes: each would be checksummed whole and read again.
        let noise = Array([[UInt8]](repeating: [0xB5, 0x62, 0x01, 0x07, 0xFF, 0x1F], count: 131_072).joined())
        let frame = ubx(0x01, 0x61, [0x10, 0x27, 0x00, 0x00])
        let bytes = noise + Array(repeating: 0x0A, count: 16_384) + frame
        let whole = decode(bytes)
        let tried = whole.rejects.filter { $0.reason == .badChecksum }.count
        // The work bound: 1 MiB and 4 bytes per input byte, at 8,199 bytes per failed frame.
        let bound = (NMEAFramer.ubxWorkAllowance + NMEAFramer.ubxWorkPerByte * Int64(bytes.count)) / 8_199 + 2
        #expect(tried > 100 && tried <= Int(bound), "\(tried) false frames checked; the bound allows \(bound) (131,072 without it)")
        #expect(whole.frames == [frame], "the real frame after the noise")
        let split = decode(bytes, chunkSizes: [4_096, 1, 8_200, 37])
        #expect(split.frames == whole.frames)
        #expect(split.rejects.map(\.reason) == whole.rejects.map(\.reason))
        #expect(split.rejects.map(\.byteCount).reduce(0, +) == whole.rejects.map(\.byteCount).reduce(0, +))
    }

    @Test("a length past the configured limit is no frame")
    func lengthPastLimit() {
        let framer = NMEAFramer.Configuration(maximumUBXPayloadLength: 16)
        let long = ubx(0x01, 0x35, Array(repeating: 0, count: 32))
        let decoded = decode(long + Array(gga.utf8), framer: framer)
        #expect(decoded.frames.isEmpty)
        #expect(decoded.sentences.count == 1)
        #expect(decoded.rejects.allSatisfy { $0.reason == .bytesSkipped })
        #expect(decode(long + Array(gga.utf8)).frames == [long])
    }

    @Test("a sentence cut by a frame's sync byte is rejected, and the frame read")
    func syncInsideSentence() {
        let cut = Array(gga.utf8.prefix(20))
        let decoded = decode(cut + eoe + Array(rmc.utf8))
        #expect(decoded.rejects.map(\.reason) == [.nonPrintable])
        #expect(decoded.frames == [eoe])
        #expect(decoded.sentences.count == 1)
    }

    @Test("a frame cut short at the end of the input is skipped bytes")
    func truncatedAtEnd() {
        let decoded = decode(Array(gga.utf8) + Array(eoe.prefix(7)))
        #expect(decoded.frames.isEmpty)
        #expect(decoded.rejects.map(\.reason) == [.bytesSkipped])
        #expect(decoded.rejects.first?.byteCount == 7)
    }

    @Test("a frame of a kind nothing decodes is handed out and counted, never rejected")
    func unknownKind() {
        let frame = ubx(0x0A, 0x09, [1, 2, 3])
        let decoded = decode(frame)
        #expect(decoded.frames == [frame])
        #expect(decoded.rejects.isEmpty)
        #expect(decoded.statistics.ubxFrames[UBXMessageKind(messageClass: 0x0A, messageID: 0x09)] == 1)
        #expect(UBXMessageKind(messageClass: 0x0A, messageID: 0x09).description == "MON-0x09")
        #expect(UBXMessageKind(messageClass: 0x42, messageID: 0x01).description == "UBX-0x42-0x01")
        #expect(UBXMessageKind(messageClass: 0x01, messageID: 0x07).description == "NAV-PVT")
    }
}
