import Testing
@testable import NMEA
import TestSupport

@Suite("Fields", .mayBlock)
struct FieldTests {
    @Test("coordinates keep every digit: exact to 1e-9 degree")
    func manyFractionalDigits() throws {
        guard case .gga(let gga)? = try sentence("GPGGA,120000.00,4807.038123456789,N,01131.000987654321,W,1,08,0.9,545.4,M,46.9,M,,") else {
            Issue.record("no GGA")
            return
        }
        #expect(abs(try #require(gga.latitude) - (48 + 7.038123456789 / 60)) < 1e-12)
        #expect(abs(try #require(gga.longitude) + (11 + 31.000987654321 / 60)) < 1e-12)
    }

    @Test("twenty-five fractional digits neither overflow nor lose precision")
    func absurdPrecision() throws {
        guard case .gga(let gga)? = try sentence("GPGGA,120000.00,4807.0381234567891234567891234,N,01131.0,E,1,08,0.9,545.4,M,46.9,M,,") else {
            Issue.record("no GGA")
            return
        }
        #expect(abs(try #require(gga.latitude) - (48 + 7.0381234567891234567891234 / 60)) < 1e-12)
    }

    /// `count` fields of digits and points in any order, of lengths in `lengths`.
    private func randomFields(_ count: Int, lengths: ClosedRange<Int>, using generator: inout some RandomNumberGenerator) -> [String] {
        let alphabet = Array("0123456789.")
        return (0..<count).map { _ in
            String((0..<Int.random(in: lengths, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
    }

    @Test("the word-at-a-time coordinate reader agrees with the general one, value and error")
    func quickCoordinatesAgree() {
        var generator = SystemRandomNumberGenerator()
        var samples = ["4807.038", "0000.0000", "00.0", "0.5", "9000.0000", "9000.0001", "8959.99999999", "4860.0000",
                       "4807.", "48.07", "480.7038", "48070.38", "-4807.038", "+4807.038", "48a7.038", "4807.03a",
                       "4807..038", "4807.038.1", "4807.0381234", "4807", ".4807", "4807.038 ", "12345678.9",
                       "4717.1125789", "4807.03824712345", "0000.000000000001", "5959.9999999999999", "4807.0382471234567",
                       "4807.03824.12345", "4807.038247123.5", "4807.03824712a45", "8959.999999999999"]
        samples += randomFields(3000, lengths: 1...20, using: &generator)
        // Well-formed fields with every length of fraction, as high-precision receivers send them.
        let digits = Array("0123456789")
        for _ in 0..<3000 {
            let fraction = String((0..<Int.random(in: 0...15, using: &generator)).map { _ in digits[Int.random(in: 0..<10, using: &generator)] })
            let degrees = String(format: "%02d", Int.random(in: 0...90, using: &generator))
            let minutes = String(format: "%02d", Int.random(in: 0...60, using: &generator))
            samples.append(degrees + minutes + "." + fraction)
        }
        for text in samples {
            let general = Result { () throws(FieldError) -> Double? in
                try Array(text.utf8).withUnsafeBufferPointer { buffer throws(FieldError) in
                    try NMEAField(base: buffer.baseAddress!, count: buffer.count).degreesMinutes(maximumDegrees: 90)
                }
            }
            let result = decode(nmea("GPGLL,\(text),N,01131.000,E,123519,A,A"))
            switch general {
            case .success(let value?):
                guard case .gll(let gll)? = result.decoded.first else {
                    Issue.record("\(text): no GLL")
                    continue
                }
                #expect(gll.latitude?.bitPattern == value.bitPattern, "\(text)")
            case .success(nil), .failure:
                // The latitude (with its hemisphere) is lost, not the sentence.
                guard case .gll(let gll)? = result.decoded.first else {
                    Issue.record("\(text): no GLL")
                    continue
                }
                #expect(gll.latitude == nil && gll.longitude != nil && gll.time != nil, "\(text)")
                #expect(result.rejects.map(\.fieldIndex) == [1], "\(text)")
            }
        }
    }

    @Test("latitude above 90 is rejected with its field named, and the rest of the sentence kept")
    func latitudeOutOfRange() throws {
        let result = decode(nmea("GPGGA,120000.00,9107.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        guard case .gga(let gga)? = result.decoded.first else {
            Issue.record("no GGA")
            return
        }
        #expect(gga.latitude == nil)
        #expect(gga.longitude != nil && gga.time != nil && gga.altitudeMSL == 545.4 && gga.quality == .gps)
        #expect(result.rejects.count == 1)
        #expect(result.rejects.first?.reason == .malformedField)
        #expect(result.rejects.first?.fieldIndex == 2)
        #expect(result.rejects.first?.address == "GPGGA")
        #expect(result.rejects.first?.byteCount == 8)
    }

    @Test("longitude above 180 is rejected with its field named, and the rest of the sentence kept")
    func longitudeOutOfRange() {
        let result = decode(nmea("GPRMC,120000.00,A,4807.038,N,18100.000,E,0.0,,010124,,,A"))
        guard case .rmc(let rmc)? = result.decoded.first else {
            Issue.record("no RMC")
            return
        }
        #expect(rmc.longitude == nil && rmc.latitude != nil && rmc.date != nil && rmc.isValid == true)
        #expect(result.rejects.map(\.fieldIndex) == [5])
    }

    @Test("minutes of 60 or more are rejected")
    func minutesOutOfRange() {
        let result = decode(nmea("GPGLL,4860.000,N,01131.000,E,120000.00,A,A"))
        #expect(result.rejects.first?.fieldIndex == 1)
    }

    @Test("a hemisphere other than N/S is rejected")
    func badHemisphere() {
        let result = decode(nmea("GPGLL,4807.038,X,01131.000,E,120000.00,A,A"))
        #expect(result.rejects.first?.fieldIndex == 2)
    }

    @Test("time 235960 is a leap second, not an error")
    func leapSecond() throws {
        guard case .rmc(let rmc)? = try sentence("GPRMC,235960.00,A,4807.038,N,01131.000,E,0.0,,311216,,,A") else {
            Issue.record("no RMC")
            return
        }
        let time = try #require(rmc.time)
        #expect(time.hour == 23 && time.minute == 59 && time.second == 60)
        #expect(time.isLeapSecond)
        #expect(time.description == "23:59:60.000")
    }

    @Test("the word-at-a-time time reader agrees with the general one, value and error")
    func quickTimesAgree() {
        var generator = SystemRandomNumberGenerator()
        var samples = ["120000", "120000.00", "235960", "235960.5", "000000.000000001", "235959.99999999", "235959.123456789",
                       "120000.", "120000..", "120000.1.", "120000.1.2", "12000.00", "1200000.0", "240000", "236000", "235961",
                       "12a000.00", "120000.0a", "-12000.00", "120000.123456789012", ""]
        samples += randomFields(3000, lengths: 1...18, using: &generator)
        // Well-formed fields with every length of fraction, some of them impossible times.
        let digits = Array("0123456789")
        for _ in 0..<3000 {
            let fraction = String((0..<Int.random(in: 0...10, using: &generator)).map { _ in digits[Int.random(in: 0..<10, using: &generator)] })
            let clock = String(format: "%02d%02d%02d", Int.random(in: 0...24, using: &generator), Int.random(in: 0...60, using: &generator),
                               Int.random(in: 0...61, using: &generator))
            samples.append(fraction.isEmpty ? clock : clock + "." + fraction)
        }
        for text in samples {
            let general = Result { () throws(FieldError) -> TimeOfDay? in
                try Array(text.utf8).withUnsafeBufferPointer { buffer throws(FieldError) in
                    try NMEAField(base: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buffer.count).timeOfDay()
                }
            }
            let result = decode(nmea("GPZDA,\(text),05,06,2024,00,00"))
            switch general {
            case .success(let value):
                guard case .zda(let zda)? = result.decoded.first else {
                    Issue.record("\(text): no ZDA")
                    continue
                }
                #expect(zda.time == value, "\(text)")
            case .failure:
                guard case .zda(let zda)? = result.decoded.first else {
                    Issue.record("\(text): no ZDA")
                    continue
                }
                #expect(zda.time == nil && zda.date != nil, "\(text)")
                #expect(result.rejects.map(\.fieldIndex) == [1], "\(text)")
            }
        }
    }

    @Test("impossible times are rejected", arguments: ["245959", "236059", "235961", "12000", "12a000", "120000."])
    func badTime(text: String) {
        let result = decode(nmea("GPGGA,\(text),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        #expect(result.rejects.first?.fieldIndex == 1, "\(text)")
    }

    @Test("fractional seconds of any length")
    func fractions() throws {
        guard case .gga(let gga)? = try sentence("GPGGA,010203.123456,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") else {
            Issue.record("no GGA")
            return
        }
        #expect(gga.time?.nanosecond == 123_456_000)
    }

    @Test("decimal fields")
    func decimals() {
        #expect(parse("12.5") == 12.5)
        #expect(parse("-0.25") == -0.25)
        #expect(parse("+3") == 3)
        #expect(parse("007") == 7)
        #expect(parse(".5") == 0.5)
        #expect(parse("5.") == 5)
        #expect(parse("1.2.3") == nil)
        #expect(parse("1e5") == nil)
        #expect(parse("-") == nil)
        #expect(parse("12345678901234567890123") == 12345678901234567890123.0)
    }

    private func parse(_ text: String) -> Double? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            parseDecimal(NMEAField(base: UnsafePointer(buffer.baseAddress!), count: buffer.count))
        }
    }

    @Test("short numbers read without branches agree with the general reader, in every position")
    func shortWholeNumbers() {
        let alphabet: [String] = ["0", "5", "9", "/", ":", "A", "-", "."]
        var fields = [""]
        var level = [""]
        for _ in 1...4 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            fields += level
        }
        // In the middle, last before the checksum, with no checksum, and split across chunks.
        let layouts: [(String) -> String] = [
            { nmea("GPTST,\($0),7") }, { nmea("GPTST,\($0)") }, { "$GPTST,\($0)\r\n" },
        ]
        var checked = 0
        for field in fields {
            let expected: Int
            let bytes = Array(field.utf8)
            if bytes.isEmpty {
                expected = RawSentence.emptyField
            } else if bytes.count <= 3, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                expected = Int(field)!
            } else {
                expected = -1
            }
            for layout in layouts {
                let text = Array(layout(field).utf8)
                for split in [text.count, text.count / 2] {
                    let framer = NMEAFramer(configuration: .init(acceptsMissingChecksum: true))
                    var seen: Int?
                    let handle: (NMEAFramer.Event) -> Void = { event in
                        if case .sentence(let raw) = event { seen = raw.shortWholeNumber(1) }
                    }
                    text.withUnsafeBytes { buffer in
                        framer.feed(UnsafeRawBufferPointer(rebasing: buffer[..<split]), handle)
                        framer.feed(UnsafeRawBufferPointer(rebasing: buffer[split...]), handle)
                    }
                    #expect(seen == expected, "field \"\(field)\" in \(String(decoding: text, as: UTF8.self))")
                    checked += 1
                }
            }
        }
        #expect(checked == fields.count * 6)
    }

    @Test("decimals read from one word agree with the general reader")
    func eightByteDecimals() {
        let alphabet: [String] = ["0", "1", "7", "9", ".", "-", "+", "/", ":", "e"]
        var fields = [String]()
        var level = [""]
        for _ in 1...4 {
            level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
            fields += level
        }
        var random = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let length = Int(random.next() % 10) + 1
            fields.append(String((0..<length).map { _ in Character(alphabet[Int(random.next() % 5)]) }))
        }
        fields += ["12345678", "1234.567", ".1234567", "1234567.", "99999999", "0.000001", "4807.038", "00000000"]
        var fast = 0
        for field in fields {
            let bytes = Array(field.utf8)
            let general = bytes.withUnsafeBufferPointer { parseLongDecimal(NMEAField(base: $0.baseAddress!, count: $0.count)) }
            guard bytes.count <= 8 else { continue }
            // Eight readable bytes before the field's end, as in a sentence.
            let padded = [UInt8](repeating: UInt8(ascii: ","), count: 8) + bytes
            let quick = padded.withUnsafeBufferPointer {
                RawSentence.eightByteDecimal(endingAt: $0.baseAddress! + padded.count, count: bytes.count)
            }
            if let quick {
                fast += 1
                #expect(quick == general, "\(field)")
            } else {
                #expect(general == nil || field.first == "-" || field.first == "+", "\(field) left to the general reader")
            }
        }
        #expect(fast > 1_000)
    }
}
