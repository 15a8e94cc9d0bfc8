import Testing
@testable import NMEA
import TestSupport

/// A device's reader sees the line go quiet between a receiver's bursts and tells the decoder
/// (`NMEADecoder.noteQuiet()`); where the order of sentences alone cannot say which cycle a
/// sentence without a time belongs to, the quiet does.
@Suite("Quiet lines between bursts", .mayBlock)
struct QuietLineTests {
    /// One cycle at `second` after 12:00:00 of a receiver that sends no RMC: VTG says the
    /// speed (1 + second knots) and course (10 × second degrees); GGA the position and time.
    private static func cycle(_ second: Int, vtgFirst: Bool) -> String {
        let vtg = nmea(String(format: "GPVTG,%05.1f,T,,M,%05.1f,N,,K,A", Double(10 * second), Double(1 + second)))
        let fix = nmea(String(format: "GPGGA,1200%02d.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,", second))
            + nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.9,1.2")
        return vtgFirst ? vtg + fix : fix + vtg
    }

    private static func knots(_ value: Double) -> Double { value * 1852 / 3600 }

    /// Feeds each burst, then notes a quiet; returns how many fixes were out after each burst,
    /// and every fix at the end.
    private static func play(_ bursts: [String], quiets: Bool = true) -> (outAfter: [Int], fixes: [Fix]) {
        let decoder = NMEADecoder()
        var fixes: [Fix] = []
        var outAfter: [Int] = []
        let collect: (NMEADecoder.Event) -> Void = { if let fix = $0.fix { fixes.append(fix) } }
        for burst in bursts {
            decoder.feed(Array(burst.utf8), collect)
            outAfter.append(fixes.count)
            if quiets { decoder.noteQuiet(collect) }
        }
        decoder.finish(collect)
        return (outAfter, fixes)
    }

    @Test("VTG first, no RMC: with the quiets, each epoch has its own VTG's speed and course, and is out at its burst's end")
    func vtgFirst() {
        let bursts = (0..<6).map { Self.cycle($0, vtgFirst: true) }
        let played = Self.play(bursts)
        #expect(played.fixes.count == 6)
        for (second, fix) in played.fixes.enumerated() {
            #expect(fix.timeOfDay?.second == second)
            #expect(fix.speed.map { abs($0 - Self.knots(Double(1 + second))) < 1e-9 } == true, "epoch \(second): \(fix.speed as Any)")
            #expect(fix.track == Double(10 * second), "epoch \(second)")
        }
        // The first epoch waits for the next cycle's time; from then on the end is known.
        #expect(played.outAfter == [0, 2, 3, 4, 5, 6])

        // The same bytes from a log, with no quiets: the order alone gives each VTG to the cycle
        // before it (Tests/KNOWN-DIFFERENCES.md, a VTG sent before its cycle's RMC).
        let unpaced = Self.play(bursts, quiets: false)
        #expect(unpaced.fixes.prefix(5).map(\.track) == (1..<6).map { Double(10 * $0) })
    }

    @Test("VTG last: the quiets change nothing, and each epoch is out at its burst's end")
    func vtgLast() {
        let bursts = (0..<6).map { Self.cycle($0, vtgFirst: false) }
        let played = Self.play(bursts), unpaced = Self.play(bursts, quiets: false)
        #expect(played.fixes == unpaced.fixes)
        #expect(played.fixes.map(\.track) == (0..<6).map { Double(10 * $0) })
        #expect(played.outAfter == [0, 2, 3, 4, 5, 6])
    }

    @Test("a pause inside a burst: what follows it without a time stays in its epoch when another quiet or the epoch's time comes next")
    func pauseInsideBurst() {
        // RMC without speed, GGA; a pause; VTG and GSA; the burst's end.
        func split(_ second: Int) -> [String] {
            let time = String(format: "1200%02d.00", second)
            return [nmea("GPRMC,\(time),A,5207.4074,N,00419.2659,E,,,050624,,,A")
                        + nmea("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,"),
                    nmea(String(format: "GPVTG,%05.1f,T,,M,%05.1f,N,,K,A", Double(10 * second), Double(1 + second)))
                        + nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.9,1.2")]
        }
        let played = Self.play((0..<4).flatMap(split))
        #expect(played.fixes.map(\.track) == (0..<4).map { Double(10 * $0) })
        #expect(played.fixes.map(\.timeOfDay?.second) == [0, 1, 2, 3])

        // The pause before untimed sentences, then a sentence with the epoch's time.
        func late(_ second: Int) -> [String] {
            let time = String(format: "1200%02d.00", second)
            return [nmea("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,"),
                    nmea(String(format: "GPVTG,%05.1f,T,,M,%05.1f,N,,K,A", Double(10 * second), Double(1 + second)))
                        + nmea("GPGLL,5207.4074,N,00419.2659,E,\(time),A,A")]
        }
        let revised = Self.play((0..<4).flatMap(late))
        #expect(revised.fixes.map(\.track) == (0..<4).map { Double(10 * $0) })
        #expect(revised.fixes.map(\.timeOfDay?.second) == [0, 1, 2, 3])
    }

    @Test("an end learned from the order alone (two bursts read at once) is learned again at the first quiet that shows it wrong")
    func relearned() {
        let cycles = (0..<6).map { Self.cycle($0, vtgFirst: true) }
        let played = Self.play([cycles[0] + cycles[1]] + cycles[2...])
        #expect(played.fixes.count == 6)
        // The first epoch has the second's VTG (nothing told them apart), the second none;
        // every later one its own.
        #expect(played.fixes.map(\.track) == [10, nil] + (2..<6).map { Double(10 * $0) })
        #expect(played.outAfter == [1, 3, 4, 5, 6])
    }

    @Test("sentences without a time after the last quiet, and the input ends: they are the last epoch's")
    func endAfterQuiet() {
        let time = "120000.00"
        let played = Self.play([
            nmea("GPRMC,\(time),A,5207.4074,N,00419.2659,E,,,050624,,,A"),
            nmea("GPVTG,045.0,T,,M,002.0,N,,K,A"),
        ])
        #expect(played.fixes.count == 1)
        #expect(played.fixes.first?.track == 45)
    }

    @Test("a quiet in the middle of a sentence says nothing")
    func quietInsideSentence() {
        let text = (0..<4).map { Self.cycle($0, vtgFirst: true) }.joined()
        let decoder = NMEADecoder()
        var fixes: [Fix] = []
        let collect: (NMEADecoder.Event) -> Void = { if let fix = $0.fix { fixes.append(fix) } }
        // Split inside every VTG, a quiet at each split.
        for piece in text.split(separator: "T,,M", omittingEmptySubsequences: false).enumerated() {
            decoder.feed(Array(((piece.offset > 0 ? "T,,M" : "") + piece.element).utf8), collect)
            decoder.noteQuiet(collect)
        }
        decoder.finish(collect)
        #expect(fixes == Self.play([text], quiets: false).fixes)
    }

    @Test("a receiver that sends only ZDA, a quiet after each: an epoch a second, as without quiets")
    func zdaOnly() {
        let bursts = (0..<4).map { nmea(String(format: "GPZDA,1200%02d.00,05,06,2024,00,00", $0)) }
        let played = Self.play(bursts)
        #expect(played.fixes.map(\.timeOfDay?.second) == [0, 1, 2, 3])
        // Learned as the end at the first new time: each out as it comes from then on.
        #expect(played.outAfter == [0, 2, 3, 4])
        #expect(played.fixes == Self.play(bursts, quiets: false).fixes)
    }

    @Test("ZDA first in each burst (positions after it): a quiet before each keeps one epoch per cycle")
    func zdaFirst() {
        let bursts = (0..<4).map { second in
            nmea(String(format: "GPZDA,1200%02d.00,05,06,2024,00,00", second))
                + nmea(String(format: "GPGGA,1200%02d.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,", second))
                + nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.9,1.2")
        }
        let played = Self.play(bursts)
        #expect(played.fixes.map(\.timeOfDay?.second) == [0, 1, 2, 3])
        #expect(played.fixes.allSatisfy { $0.time != nil && $0.mode == .threeD })
    }
}
