import Dispatch
import Foundation
import TestSupport
import Testing
@testable import NMEAStream

@Suite("Paced replay", .mayBlock)
struct PacedReplayTests {
    @Test("a log replayed at its own pace, sped up: every fix, spread over the recorded time")
    func paced() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let path = Fixtures.directory.appendingPathComponent("ublox-multi.nmea").path
        let recorded = try #require(expected.last?.time?.secondsSince1970) - (try #require(expected.first?.time?.secondsSince1970))
        let speed = 20.0
        let (fixes, elapsed) = try replay(.log(path: path, pace: .recorded(speed: speed)))
        #expect(fixes == expected)
        // The first fix goes out at once, the last one the recorded span later, sped up.
        #expect(elapsed >= recorded / speed * 0.9)
    }

    @Test("midnight is one second; a jump ahead or back starts the pacing over")
    func midnightAndRestart() throws {
        let times = ["235958", "235959", "000000", "000001", "120000", "120001", "080000", "080001"]
        let log = times.map { sentence("GPRMC,\($0).00,A,5207.4074,N,00419.2659,E,0.0,,050624,,,A") }.joined()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-paced-\(getpid()).nmea")
        try Data(log.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (_, elapsed) = try replay(.log(path: file.path, pace: .recorded(speed: 10)))
        // Three seconds of log up to 00:00:01, then twice a restart and one more: 0.5 s at ×10.
        #expect(elapsed >= 0.45)
        #expect(elapsed < 30, "not waiting the hours between the recordings")
    }

    @Test("the time of each sentence type that carries one, and none for the others")
    func sentenceTimes() {
        func time(_ line: String) -> Double? { Array(line.utf8).withUnsafeBytes { LogPacer.secondsOfDay($0) } }
        #expect(time("$GPGGA,123519.25,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") == 45_319.25)
        #expect(time("$GNRMC,000001,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A") == 1)
        #expect(time("$GPGLL,4916.45,N,12311.12,W,225444,A,*1D") == 82_484)
        #expect(time("$GPZDA,201530.00,04,07,2002,00,00*60") == 72_930)
        #expect(time("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00*74") == nil)
        #expect(time("$GPGGA,,,,,,0,,,,,,,,*66") == nil)
        #expect(time("$GPGGA,12a519,4807.038,N*00") == nil)
    }

    /// A NAV-PVT `seconds` after 2026-11-26 11:30:18 UTC, a 3D fix, with a line feed in its
    /// payload (a speed of 10 mm/s), which a line-by-line pacer would cut the frame at.
    static func pvt(after seconds: Int) -> [UInt8] {
        UBXTestFrames.navPVT(after: seconds, groundSpeed: 0x0A)
    }

    @Test("UBX frames go out whole, each at its time of week (less the 18 leap seconds gpsd assumes)")
    func ubxUnits() {
        let frame = Self.pvt(after: 2)
        let line = Array(sentence("GPGGA,113020.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,").utf8)
        func unit(_ bytes: [UInt8], atEnd: Bool = false) -> LogPacer.Unit? { bytes.withUnsafeBytes { LogPacer.nextUnit($0, atEnd: atEnd) } }
        // 387,038 s into the week less 18 s: 11:30:20, as the GGA beside it.
        #expect(unit(frame + line) == LogPacer.Unit(length: frame.count, secondsOfDay: 41_420))
        #expect(unit(line + frame)?.secondsOfDay == 41_420)
        // HNR-PVT, between the navigation epochs, by its own time of week.
        let highRate = UBXTestFrames.hnrPVT(afterMilliseconds: 200)
        #expect(unit(highRate).map { ($0.secondsOfDay! * 1000).rounded() } == 41_418_200)
        #expect(unit(Array(frame.prefix(40))) == nil, "a frame waits for its bytes")
        #expect(unit(Array(frame.prefix(40)), atEnd: true)?.length == 40)
        // Text up to a frame's first byte is a unit of its own.
        #expect(unit(Array("noise".utf8) + frame) == LogPacer.Unit(length: 5, secondsOfDay: nil))
        // A frame whose checksum fails is no frame: its bytes go out as text does.
        var corrupted = frame
        corrupted[20] ^= 1
        #expect(unit(corrupted)?.length != corrupted.count)
    }

    @Test("a UBX log replayed at its own pace: every fix, spread over the recorded time")
    func pacedUBX() throws {
        let bytes = (0..<6).flatMap { Self.pvt(after: $0) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-paced-ubx-\(getpid()).ubx")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (unpaced, _) = try replay(.log(path: file.path))
        #expect(unpaced.count == 6)
        let (fixes, elapsed) = try replay(.log(path: file.path, pace: .recorded(speed: 10)))
        #expect(fixes == unpaced)
        // Five seconds of log at ×10.
        #expect(elapsed >= 0.45)
    }

    /// Runs `source` to its end; the fixes and the seconds it took.
    private func replay(_ source: GPSSource) throws -> ([Fix], Double) {
        let reader = NMEAReader(source: source)
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        let start = DispatchTime.now()
        reader.start()
        #expect(recorder.waitForEnd(seconds: 30))
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(recorder.error == nil)
        return (recorder.fixes, elapsed)
    }

    @Test("a pause of more than five seconds is shortened to one cycle, or waited out when gaps are kept")
    func longGaps() throws {
        // One-second cycles, then 30 s of silence (a receiver without a fix, a paused logger).
        let times = ["120000", "120001", "120031", "120032"]
        let log = times.map { sentence("GPRMC,\($0).00,A,5207.4074,N,00419.2659,E,0.0,,050624,,,A") }.joined()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-gaps-\(getpid()).nmea")
        try Data(log.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        // Three cycles of one second at ×10.
        let (shortened, quick) = try replay(.log(path: file.path, pace: .recorded(speed: 10)))
        #expect(shortened.count == times.count)
        #expect(quick >= 0.27)
        #expect(quick < 2.5, "not waiting out the pause")

        // 1 + 30 + 1 seconds at ×10.
        let (kept, slow) = try replay(.log(path: file.path, pace: .recorded(speed: 10, keepingGaps: true)))
        #expect(kept.count == times.count)
        #expect(slow >= 3.1)
    }

    private func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(sum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n"
    }
}
