import Foundation
import NMEA
import Testing
import TestSupport

/// RTCM 3 frames: CRC-24Q, one frame checked, and a stream cut into frames, against gpsd's
/// reading of the corpus's RTCM logs.
@Suite("RTCM 3 framing", .mayBlock)
struct RTCM3FramerTests {
    /// A frame of `payload` with its header and checksum.
    static func frame(_ payload: [UInt8]) -> [UInt8] { RTCM3TestFrames.frame(payload) }

    /// A 1005 (a base station's position: type 1005, station 2003, then 19 bytes), as casters
    /// send every few seconds.
    static let stationFrame = frame([0x3E, 0xD7, 0xD3, 0x02, 0x02, 0x98, 0x0E, 0xDE, 0xEF, 0x34, 0xB4, 0xBD, 0x62,
                                     0xAC, 0x09, 0x41, 0x98, 0x6F, 0x33, 0x36, 0x0B, 0x98])

    @Test("CRC-24Q: the catalogue's check value, and a frame's checksum over its header and payload")
    func crc() {
        #expect(CRC24Q.checksum(Array("123456789".utf8)) == 0xCDE703)
        #expect(CRC24Q.checksum([UInt8]()) == 0)
        let frame = Self.stationFrame
        #expect(CRC24Q.checksum(frame.dropLast(3)) == UInt32(frame[frame.count - 3]) << 16 | UInt32(frame[frame.count - 2]) << 8 | UInt32(frame[frame.count - 1]))
    }

    @Test("one frame: its message type and length; a wrong checksum, length, preamble or reserved bit is no frame")
    func oneFrame() throws {
        let frame = try #require(RTCM3Frame(bytes: Self.stationFrame))
        #expect(frame.messageType == 1005)
        #expect(frame.payloadLength == 19 + 3)
        var corrupt = Self.stationFrame
        corrupt[10] ^= 0x01
        #expect(RTCM3Frame(bytes: corrupt) == nil)
        #expect(RTCM3Frame(bytes: Array(Self.stationFrame.dropLast())) == nil)
        var preamble = Self.stationFrame
        preamble[0] = 0xD2
        #expect(RTCM3Frame(bytes: preamble) == nil)
        var reserved = Self.stationFrame
        reserved[1] |= 0x04
        #expect(RTCM3Frame(bytes: reserved) == nil)
        #expect(RTCM3Frame(bytes: Self.frame([]))?.messageType == nil, "an empty payload has no type")
    }

    @Test("a stream: frames among noise, a corrupt frame dropped and counted, a false preamble passed over, frames split anywhere")
    func stream() {
        let second = Self.frame([0x3F, 0x00, 0x12, 0x34])  // type 1008
        // (No 0xD3 inside: a false preamble inside a corrupt frame would hold the frames
        // after it until its claimed length has arrived; see the next test.)
        var corrupt = second
        corrupt[5] ^= 0x80
        // A false preamble: 0xD3, then a length, with nothing after that makes a frame.
        let noise: [UInt8] = [0x24, 0xD3, 0x00, 0x05, 0x01, 0x02]
        let stream = noise + Self.stationFrame + corrupt + [0xD3, 0xFF] + second + Self.stationFrame
        for split in 0...stream.count {
            var framer = RTCM3Framer()
            var frames: [RTCM3Frame] = []
            framer.feed(stream[..<split]) { frames.append($0) }
            framer.feed(stream[split...]) { frames.append($0) }
            #expect(frames.map(\.bytes) == [Self.stationFrame, second, Self.stationFrame], "split at \(split)")
            #expect(framer.counts.frames == [1005: 2, 1008: 1], "split at \(split)")
            #expect(framer.counts.badChecksums >= 2, "the corrupt frame and the false preamble")
        }
        var framer = RTCM3Framer()
        var frames = 0
        for byte in stream { framer.feed([byte]) { _ in frames += 1 } }
        #expect(frames == 3, "a byte at a time")
    }

    @Test("a false preamble inside a corrupt frame that claims a long payload: the frames after it come once that many bytes have, none lost")
    func falsePreambleWaits() {
        var corrupt = Self.stationFrame
        corrupt[12] ^= 0x80
        // The corrupt frame's payload holds D3 02 02: a false frame of 514 bytes.
        var framer = RTCM3Framer()
        var frames: [[UInt8]] = []
        framer.feed(corrupt + Self.stationFrame) { frames.append($0.bytes) }
        #expect(frames.isEmpty)
        let more = Array(repeating: Self.stationFrame, count: 25).flatMap { $0 }
        framer.feed(more) { frames.append($0.bytes) }
        #expect(frames.count == 26)
        #expect(framer.counts.frames == [1005: 26])
    }

    @Test("the corpus's RTCM 3 logs: every frame gpsd reads, of the same type and length, in order",
          .enabled(if: Corpus.isAvailable, "../shared/corpus is absent"), arguments: ["rtcm3.2.log", "rtcm3_102x135.log", "ublox-f9p-rtcm.log"])
    func corpus(_ name: String) throws {
        let log = Corpus.root.appendingPathComponent("gpsd-mixed/\(name)")
        var expected = try String(contentsOf: log.appendingPathExtension("chk"), encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .compactMap { line -> [Int]? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["class"] as? String == "RTCM3", let type = object["type"] as? Int, let length = object["length"] as? Int
                else { return nil }
                return [type, length]
            }
        try #require(!expected.isEmpty)
        var framer = RTCM3Framer()
        var frames: [[Int]] = []
        framer.feed(Array(try Data(contentsOf: log))) { frames.append([$0.messageType ?? 0, $0.payloadLength]) }
        // gpsd reports this log's last frame again at the end of the input; the log holds it
        // once (Tests/KNOWN-DIFFERENCES.md, "RTCM 3 frames").
        if name == "ublox-f9p-rtcm.log", expected.count == frames.count + 1, expected.last == frames.last {
            expected.removeLast()
        }
        #expect(frames == expected)
        #expect(framer.counts.badChecksums == 0)
    }
}
