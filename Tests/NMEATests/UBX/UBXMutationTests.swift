import Foundation
import Testing
import TestSupport
@testable import NMEA

/// Corrupts one field of every NAV-PVT of gpsd's u-blox logs (its checksum made good again, as
/// a receiver's firmware fault or a bad byte a checksum misses would leave it) and checks that
/// each costs that field only: the same epochs, exactly that field reported after its frame,
/// and the rest of the fix as it was.
@Suite("UBX field mutation", .mayBlock, .enabled(if: Corpus.isAvailable, "../shared/corpus is absent: mutation test not run"))
struct UBXMutationTests {
    /// A field and a value it can never hold: the month (13), the fix type (9), the latitude
    /// (beyond 90°); with the offset its reject names.
    static let corruptions: [(reported: Int, bytes: [Int: UInt8])] = [
        (4, [6: 13]),
        (20, [20: 9]),
        (28, [28: 0xFF, 29: 0xFF, 30: 0xFF, 31: 0x7F]),
    ]

    @Test("one corrupted field per NAV-PVT: the same epochs, exactly that field reported, the rest of the fix kept")
    func corruptedFields() throws {
        let logs = try Corpus.logs(in: "gpsd-mixed").filter {
            ["ublox-glo.log", "ublox-neo-m8n.log", "ublox-zed-f9p-rtk.log", "ublox-zed-f9p-hp.log"].contains($0.lastPathComponent)
        }
        #expect(logs.count == 4)
        var cases = 0
        for log in logs {
            let name = log.lastPathComponent
            var bytes = Array(try Data(contentsOf: log))
            let original = decode(bytes)
            // Each NAV-PVT frame, whole in the log: corrupt one field, make the checksum good.
            var corrupted: [Int] = []
            var index = 0
            while index + 8 <= bytes.count {
                guard bytes[index] == 0xB5, bytes[index + 1] == 0x62 else { index += 1; continue }
                let length = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8
                guard index + 8 + length <= bytes.count, length <= 8192 else { index += 1; continue }
                let frame = Array(bytes[index..<(index + 8 + length)])
                guard original.frames.contains(frame) else { index += 1; continue }
                if frame[2] == 0x01, frame[3] == 0x07, length >= 92 {
                    let corruption = Self.corruptions[corrupted.count % Self.corruptions.count]
                    var payload = Array(frame[6..<(6 + length)])
                    for (offset, value) in corruption.bytes { payload[offset] = value }
                    let mutated = ubx(0x01, 0x07, payload)
                    bytes.replaceSubrange(index..<(index + mutated.count), with: mutated)
                    corrupted.append(corrupted.count % Self.corruptions.count)
                }
                index += 8 + length
            }
            let result = decode(bytes)
            cases += corrupted.count
            #expect(result.fixes.count == original.fixes.count, "\(name): \(result.fixes.count) fixes, was \(original.fixes.count)")
            let rejects = result.rejects.filter { $0.reason == .malformedField && $0.address == "NAV-PVT" }
            #expect(rejects.map(\.fieldIndex) == corrupted.map { Self.corruptions[$0].reported }, "\(name)")
            guard result.fixes.count == original.fixes.count, corrupted.count == original.fixes.count else { continue }
            for (number, (was, now)) in zip(original.fixes, result.fixes).enumerated() {
                switch corrupted[number] {
                case 0:
                    // NAV-PVT's time is gone; NAV-TIMEGPS, where the receiver sends it, gives the same instant.
                    #expect(now.time.map { $0.roundedToMillisecond == was.time?.roundedToMillisecond } ?? true, "\(name) epoch \(number)")
                    #expect(now.latitude == was.latitude && now.mode == was.mode, "\(name) epoch \(number)")
                case 1:
                    #expect(now.time == was.time && now.latitude == was.latitude && now.ubxStatus == nil, "\(name) epoch \(number)")
                default:
                    // NAV-PVT's latitude is gone; NAV-POSECEF, where the receiver sends it, gives the position.
                    #expect(now.latitude.map { abs($0 - (was.latitude ?? 0)) < 1e-6 } ?? true, "\(name) epoch \(number)")
                    #expect(now.time == was.time && now.altitudeMSL == was.altitudeMSL, "\(name) epoch \(number)")
                }
            }
        }
        #expect(cases > 300)
    }
}
