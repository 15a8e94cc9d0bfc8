import Testing
@testable import NMEA
import TestSupport

@Suite("Framer", .mayBlock)
struct FramerTests {
    let gga = nmea("GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000", ending: "")

    @Test("every line ending frames the same sentence", arguments: ["\r\n", "\n", "\r", "\r\r\n"])
    func lineEndings(ending: String) {
        let result = decode(gga + ending + gga + ending)
        #expect(result.sentences == [gga, gga])
        #expect(result.rejects.isEmpty)
    }

    @Test("the checksum is accepted in either hex case")
    func checksumCase() {
        let upper = nmea("GPGSV,1,1,01,02,40,120,35", ending: "")
        #expect(upper.hasSuffix("*4B"))
        let result = decode(upper.dropLast(2) + "4b\r\n")
        #expect(result.sentences.count == 1)
        #expect(result.rejects.isEmpty)
    }

    @Test("a wrong checksum is rejected and counted")
    func badChecksum() {
        let result = decode("$GPGGA,030719.000,3747.0873,S,17518.8938,E,1,08,1.1,59.9,M,23.7,M,,0000*00\r\n")
        #expect(result.sentences.isEmpty)
        #expect(result.rejects.map(\.reason) == [.badChecksum])
        #expect(result.rejects.first?.address == "GPGGA")
        #expect(result.statistics.rejects[.badChecksum] == 1)
    }

    @Test("a missing checksum is rejected unless allowed")
    func missingChecksum() {
        let text = "$GPGSA,A,3,17,28,,,,,,,,,,,1.8,1.1,1.5\r\n"
        #expect(decode(text).rejects.map(\.reason) == [.missingChecksum])
        let allowed = decode(text, framer: .init(acceptsMissingChecksum: true))
        #expect(allowed.sentences == ["$GPGSA,A,3,17,28,,,,,,,,,,,1.8,1.1,1.5"])
    }

    @Test("a $ inside a sentence starts a new one")
    func restartOnDollar() {
        let result = decode("$GPGGA,0307" + gga + "\r\n")
        #expect(result.sentences == [gga])
        #expect(result.rejects.map(\.reason) == [.bytesSkipped])
        #expect(result.rejects.first?.byteCount == 11)
    }

    @Test("garbage and binary frames between sentences are skipped and counted")
    func resynchronises() {
        var bytes: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x04, 0x00, 0x0D, 0x0A, 0xFF, 0x00, 0x24, 0x81]
        bytes += Array((gga + "\r\n").utf8)
        bytes += [0xA0, 0xA2, 0x00, 0x02, 0x24, 0x24, 0xB0, 0xB3]
        bytes += Array((gga + "\r\n").utf8)
        let result = decode(bytes)
        #expect(result.sentences == [gga, gga])
        // The UBX header's frame fails its checksum: its sync bytes are reported, the rest skipped.
        #expect(result.rejects.filter { $0.reason == .badChecksum }.map(\.address) == ["NAV-PVT"])
        #expect(result.rejects.allSatisfy { [.bytesSkipped, .nonPrintable, .badChecksum].contains($0.reason) })
        let rejected = result.rejects.reduce(0) { $0 + $1.byteCount }
        #expect(rejected == bytes.count - 2 * (gga.utf8.count + 2) - 2)
    }

    @Test("a non-printable byte inside a sentence rejects it")
    func nonPrintable() {
        let result = decode("$GPGGA,0307\u{01}19.000*00\r\n" + gga + "\r\n")
        #expect(result.sentences == [gga])
        #expect(result.rejects.map(\.reason).contains(.nonPrintable))
    }

    @Test("an endless line is rejected as too long and memory stays bounded")
    func tooLong() {
        let framer = NMEAFramer(configuration: .init(maximumSentenceLength: 100))
        var reasons: [RejectReason] = []
        var sampleSizes: [Int] = []
        let chunk = [UInt8](repeating: UInt8(ascii: "A"), count: 4096)
        var start: [UInt8] = Array("$GPTXT,".utf8)
        start += chunk
        start.withUnsafeBytes { buffer in
            framer.feed(buffer) { if case .rejected(let r) = $0 { reasons.append(r.reason); sampleSizes.append(r.bytes.count) } }
        }
        for _ in 0..<2_000 {
            chunk.withUnsafeBytes { buffer in
                framer.feed(buffer) { if case .rejected(let r) = $0 { reasons.append(r.reason); sampleSizes.append(r.bytes.count) } }
            }
        }
        framer.finish { if case .rejected(let r) = $0 { reasons.append(r.reason); sampleSizes.append(r.bytes.count) } }
        #expect(reasons == [.tooLong, .bytesSkipped])
        #expect(sampleSizes.allSatisfy { $0 <= 100 })
    }

    @Test("a sentence split at every possible byte frames the same")
    func everySplit() {
        let text = gga + "\r\n"
        let bytes = Array(text.utf8)
        for split in 1..<bytes.count {
            let result = decode(bytes, chunkSizes: [split, bytes.count])
            #expect(result.sentences == [gga], "split at \(split)")
        }
    }

    @Test("a truncated sentence at the end of input is reported")
    func truncatedAtEnd() {
        let result = decode(gga + "\r\n$GPRMC,0307")
        #expect(result.sentences == [gga])
        #expect(result.rejects.map(\.reason) == [.bytesSkipped])
        #expect(result.rejects.first?.byteCount == 11)
    }

    @Test("AIS sentences starting with ! are framed")
    func encapsulated() {
        let ais = nmea("AIVDM,1,1,,A,13u?etPv2;0n:dDPwUM1U1Cb069D,0", ending: "", start: "!")
        let result = decode(ais + "\r\n")
        #expect(result.sentences == [ais])
        #expect(result.decoded.isEmpty)
    }

    @Test("addresses of every length up to twelve are checked byte by byte, wherever the bad byte is")
    func addressCharacters() {
        // The framer checks short addresses eight bytes at a time: every length and position.
        for length in 1...12 {
            let good = String("PQRST61234Zz".prefix(length))
            let fields = ",1,2"
            #expect(decode(nmea(good + fields)).sentences.count == 1, "\(good)")
            for position in 0..<length {
                for bad in ["-", "@", "[", "`", "{", "/", ":", " ", "~", "_"] {
                    var characters = Array(good)
                    characters[position] = Character(bad)
                    let address = String(characters)
                    let result = decode(nmea(address + fields))
                    #expect(result.sentences.isEmpty, "\(address)")
                    #expect(result.rejects.map(\.reason) == [.malformedField], "\(address)")
                }
            }
        }
    }

    @Test("fields and checksum are found wherever the line end falls within a word", arguments: [3, 4, 7])
    func lineEndInEveryLane(commaEvery: Int) {
        // Sentences of every length from 9 to 160 bytes, with commas at varied places, whole
        // or split in two: the fields the framer indexes equal a plain split on commas.
        for length in 0...151 {
            var body = "GPXYZ"
            for index in 0..<length { body += index % commaEvery == 1 ? "," : String(index % 10) }
            let text = Array(nmea(body).utf8)
            let expected = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for split in [text.count, text.count / 2] {
                let decoder = NMEAFramer()
                var seen: [[String]] = []
                for chunk in [text[..<split], text[split...]] {
                    Array(chunk).withUnsafeBytes { buffer in
                        decoder.feed(buffer) { event in
                            guard case .sentence(let raw) = event else { return }
                            seen.append((0..<raw.fieldCount).map { raw[$0].text })
                        }
                    }
                }
                #expect(seen == [expected], "\(body) split at \(split)")
            }
        }
    }

    @Test("the checksum digits are checked in either case, and every other byte in their place is a bad checksum")
    func checksumDigits() {
        let printable = (0x20...0x7E).map { UInt8($0) }.filter { $0 != UInt8(ascii: "$") && $0 != UInt8(ascii: "!") }
        // Bodies chosen to give every sum printable text can have (0x00 to 0x7F).
        var bodies: [UInt8: String] = [:]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,")
        for first in alphabet {
            for second in alphabet {
                let body = "PXYZW,\(first)\(second)"
                bodies[body.utf8.reduce(UInt8(0), ^)] = body
            }
        }
        #expect(bodies.count == 128)
        for (sum, body) in bodies {
            let digits = Array(String(format: "%02X", sum).utf8)
            for (position, right) in digits.enumerated() {
                for byte in printable {
                    var candidate = digits
                    candidate[position] = byte
                    let text = Array(("$" + body + "*").utf8) + candidate + [0x0D, 0x0A]
                    let sameLetter = right >= UInt8(ascii: "A") && byte == right | 0x20
                    let result = decode(text)
                    if byte == right || sameLetter {
                        #expect(result.sentences.count == 1, "\(body) \(String(decoding: candidate, as: UTF8.self))")
                    } else {
                        #expect(result.rejects.map(\.reason) == [.badChecksum], "\(body) \(String(decoding: candidate, as: UTF8.self))")
                    }
                }
            }
        }
    }

    /// Whether `byte` ends or interrupts a sentence, read byte by byte: the reference the word
    /// and block tests are held to.
    private func isStop(_ byte: UInt8) -> Bool { byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "$") }

    @Test("the word tests find the first byte that ends a sentence, and every comma before it")
    func wordTests() {
        // Printable bytes below the lane under test, every byte in it, and above it bytes that
        // provoke borrows and carries (which may only disturb lanes above the first stop).
        let below: [UInt8] = Array(" ,-0A*z~".utf8)
        let above: [UInt8] = [0x00, 0x01, 0x0A, 0x2C, 0x2D, 0x7F, 0x80, 0xFF]
        for lane in 0..<8 {
            for byte in UInt8.min...UInt8.max {
                for filler in above {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    for index in 0..<lane { bytes[index] = below[(index + Int(byte)) % below.count] }
                    bytes[lane] = byte
                    let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
                    let stops = SWAR.sentenceEnds(word)
                    let firstStop = bytes.firstIndex(where: isStop) ?? 8
                    #expect((stops == 0 ? 8 : stops.trailingZeroBitCount / 8) == firstStop, "lane \(lane) byte \(byte) filler \(filler)")
                    let commas = SWAR.printableZeroBytes(word ^ SWAR.commas)
                    for index in 0..<firstStop {
                        #expect((commas >> UInt64(8 * index + 7)) & 1 == (bytes[index] == UInt8(ascii: ",") ? 1 : 0),
                                "lane \(index) of \(bytes)")
                    }
                }
            }
        }
    }

    @Test("the block test marks exactly the bytes that end a sentence, and the commas, in all sixteen lanes")
    func blockTests() {
        let fillers: [UInt8] = [0x00, 0x1F, 0x20, 0x24, 0x2C, 0x7E, 0x7F, 0x80, 0xFF, UInt8(ascii: "A")]
        for lane in 0..<16 {
            for byte in UInt8.min...UInt8.max {
                for filler in fillers {
                    var bytes = [UInt8](repeating: filler, count: 16)
                    bytes[lane] = byte
                    let block = bytes.withUnsafeBytes { $0.loadUnaligned(as: SIMD16<UInt8>.self) }
                    let (stops, commas) = SIMDScan.classify(block)
                    for index in 0..<16 {
                        let word = index < 8 ? 0 : 1
                        let shift = UInt64(8 * (index % 8))
                        #expect((stops[word] >> shift) & 0xFF == (isStop(bytes[index]) ? 0xFF : 0), "lane \(index) of \(bytes)")
                        #expect((commas[word] >> shift) & 0xFF == (bytes[index] == UInt8(ascii: ",") ? 0xFF : 0), "lane \(index) of \(bytes)")
                    }
                }
            }
        }
    }
}
