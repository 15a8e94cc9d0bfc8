import NMEA
import Testing
import TestSupport

/// TIM-TP, the next time pulse of a timing receiver: its time (UTC, or GPS less the leap
/// seconds) and quantization error, carried by every fix until the next one, never starting
/// or ending an epoch.
@Suite("UBX TIM-TP", .mayBlock)
struct TimePulseTests {
    static func line(_ body: String) -> [UInt8] { Array(nmea(body).utf8) }

    /// 2024-06-05 12:00:01 UTC as GPS week 2317 and time of week, in UTC (`utc`) or in GPS
    /// time (18 leap seconds ahead).
    static func timTP(utc: Bool, qErr: Int32 = -1_234, qErrInvalid: Bool = false) -> [UInt8] {
        // 2024-06-05 12:00:01 UTC is 1_717_588_801; GPS week 2317 began at 1_717_286_400 (UTC scale: 315_964_800 + 2317 * 604_800).
        let secondsIntoWeek = UInt32(1_717_588_801 - (315_964_800 + 2317 * 604_800)) + (utc ? 0 : 18)
        var p = PayloadBuilder(length: 16)
        p.u4(0, secondsIntoWeek * 1000)
        p.u4(4, 0)
        p.i4(8, qErr)
        p.u2(12, 2317)
        p.u1(14, (utc ? 0x01 : 0x00) | (qErrInvalid ? 0x10 : 0))
        p.u1(15, 0)
        return ubx(0x0D, 0x01, p.bytes)
    }

    @Test("the pulse's UTC second from a UTC time base and from GPS time less the leap seconds; a quantization error marked invalid is none")
    func decoding() throws {
        for utc in [true, false] {
            let decoded = decode(Self.line("GPRMC,120000.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A") + Self.timTP(utc: utc)
                                 + Self.line("GPRMC,120001.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A"))
            #expect(decoded.rejects.isEmpty)
            #expect(decoded.fixes.count == 2, "no epoch of its own")
            #expect(decoded.fixes.map(\.timePulse) == [TimePulse(second: 1_717_588_801, quantizationError: -1_234),
                                                       TimePulse(second: 1_717_588_801, quantizationError: -1_234)], "utc \(utc)")
        }
        let invalid = decode(Self.timTP(utc: true, qErrInvalid: true) + Self.line("GPRMC,120001.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A"))
        #expect(invalid.fixes.first?.timePulse == TimePulse(second: 1_717_588_801, quantizationError: nil))
    }

    @Test("a TIM-TP between a cycle's sentences changes neither the epochs nor their times")
    func epochsUnchanged() {
        let plain = Self.line("GPGGA,120000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            + Self.line("GPRMC,120000.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A")
            + Self.line("GPGGA,120001.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            + Self.line("GPRMC,120001.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A")
        let split = plain.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) + [UInt8(ascii: "\n")] }
        let withPulse = split[0] + Self.timTP(utc: true) + split[1] + split[2] + split[3]
        let expected = decode(plain).fixes.map(\.time)
        #expect(decode(withPulse).fixes.map(\.time) == expected && expected.count == 2)
    }

    /// NAV-TIMEUTC for 2024-06-05 12:00:01 with the `valid` flags given.
    static func navTimeUTC(valid: UInt8) -> [UInt8] {
        var p = PayloadBuilder(length: 20)
        p.u4(0, 302_419_000)
        p.u2(12, 2024); p.u1(14, 6); p.u1(15, 5); p.u1(16, 12); p.u1(17, 0); p.u1(18, 1)
        p.u1(19, valid)
        return ubx(0x01, 0x21, p.bytes)
    }

    @Test("NAV-TIMEUTC that does not know UTC yet (validUTC clear) makes the epoch's time unusable for timing, whichever sentence gave it; one that does, usable")
    func utcValidity() {
        let rmc = Self.line("GPRMC,120001.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A")
        let unresolved = decode(Self.navTimeUTC(valid: 0x03) + rmc + Self.line("GPRMC,120002.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A"))
        let first = unresolved.fixes.first
        #expect(first?.time != nil, "the time NMEA gave stays")
        #expect(first?.timeValidity?.isUsableForTiming == false)
        let resolved = decode(Self.navTimeUTC(valid: 0x07) + rmc + Self.line("GPRMC,120002.00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A"))
        #expect(resolved.fixes.first?.timeValidity?.isUsableForTiming == true)
    }

    /// NAV-TIMELS of the epoch of 12:00:0`second` UTC: 18 leap seconds, a change of `change`
    /// in `seconds` (both marked valid).
    static func navTimeLS(second: Int, change: Int8, seconds: Int32) -> [UInt8] {
        var p = PayloadBuilder(length: 24)
        p.u4(0, 302_418_000 + UInt32(second) * 1000)
        p.i1(9, 18)
        p.i1(11, change)
        p.i4(12, seconds)
        p.u1(23, 0x03)
        return ubx(0x01, 0x26, p.bytes)
    }

    @Test("NAV-TIMELS: a leap second announced is carried by every fix until the receiver says otherwise")
    func leapAnnouncement() {
        let rmc = { (second: Int) in Self.line("GPRMC,12000\(second).00,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A") }
        let decoded = decode(Self.navTimeLS(second: 1, change: 1, seconds: 86_400) + rmc(1) + rmc(2)
                             + Self.navTimeLS(second: 3, change: 0, seconds: 0) + rmc(3) + rmc(4))
        #expect(decoded.fixes.map(\.leapSecondChange) == [1, 1, nil, nil])
    }
}
