import NMEA
import NMEARendering
import TestSupport
import Testing

/// UBX messages into epochs: one epoch per navigation epoch (iTOW), ended by NAV-EOE or the next
/// iTOW, and one epoch, not two, from a receiver that sends NMEA and UBX for the same cycle.
@Suite("UBX epochs", .mayBlock)
struct UBXEpochTests {
    static let baseTimeOfWeek = UBXTestFrames.baseTimeOfWeek

    static func pvt(after seconds: Int = 0, nano: Int32 = 0, latitude: Int32 = 515_000_000, fixType: UInt8 = 3,
                    flags: UInt8 = 0x01, valid: UInt8 = 0x07, flags2: UInt8 = 0) -> [UInt8] {
        UBXTestFrames.navPVT(after: seconds, nano: nano, latitude: latitude, fixType: fixType, flags: flags, valid: valid, flags2: flags2)
    }

    static func eoe(after seconds: Int = 0) -> [UInt8] {
        var p = PayloadBuilder(length: 4)
        p.u4(0, baseTimeOfWeek + UInt32(seconds * 1000))
        return ubx(0x01, 0x61, p.bytes)
    }

    static func dop(after seconds: Int = 0, jitter: Int = 0) -> [UInt8] {
        var p = PayloadBuilder(length: 18)
        p.u4(0, UInt32(Int(baseTimeOfWeek) + seconds * 1000 + jitter))
        p.u2(4, 250); p.u2(6, 200); p.u2(8, 120); p.u2(10, 160); p.u2(12, 110); p.u2(14, 90); p.u2(16, 70)
        return ubx(0x01, 0x04, p.bytes)
    }

    static func timeGPS(after seconds: Int = 0, fraction: Int32 = 0, leapSeconds: Int8 = 18) -> [UInt8] {
        var p = PayloadBuilder(length: 16)
        p.u4(0, baseTimeOfWeek + UInt32(seconds * 1000))
        p.i4(4, fraction); p.i2(8, 2446); p.i1(10, leapSeconds); p.u1(11, 0x07); p.u4(12, 25)
        return ubx(0x01, 0x20, p.bytes)
    }

    @Test("NAV-PVT alone makes a fix per epoch: time to the nearest millisecond, position, altitudes, speed, course, accuracies")
    func pvtAlone() throws {
        let decoded = decode(Self.pvt(nano: -120) + Self.pvt(after: 1, nano: -150) + Self.pvt(after: 2))
        #expect(decoded.rejects.isEmpty)
        #expect(decoded.fixes.count == 3)
        let fix = try #require(decoded.fixes.first)
        #expect(fix.mode == .threeD && fix.gpsdStatus == 1)
        #expect(fix.latitude == 51.5 && fix.longitude == -0.1234567)
        #expect(fix.altitudeMSL == 24.456 && abs((fix.altitudeHAE ?? 0) - 70.123) < 1e-9)
        #expect(abs((fix.geoidSeparation ?? 0) - 45.667) < 1e-9)
        #expect(fix.speed == 1 && fix.track == 0 && fix.satellitesUsed == 12)
        #expect(fix.accuracy == ReceiverAccuracy(horizontal: 1.5, vertical: 2.5, speed: 0.12, track: 2, time: 30e-9))
        #expect(fix.timeValidity == TimeValidity(dateIsValid: true, timeIsValid: true, isFullyResolved: true))
        #expect(fix.timeValidity?.isUsableForTiming == true)
        // 120 ns before 11:30:18: reported as 11:30:18.000, as gpsd rounds it.
        #expect(fix.time?.timeOfDay == TimeOfDay(hour: 11, minute: 30, second: 17, nanosecond: 999_999_880))
        let json = GPSDJSON.tpv(fix)
        #expect(json.contains(#""time":"2026-11-26T11:30:18.000Z""#))
        #expect(json.contains(#""eph":1.500"#) && json.contains(#""epv":2.500"#) && json.contains(#""eps":0.12"#))
        #expect(decoded.fixes.map { $0.time?.roundedToMillisecond.timeOfDay.second } == [18, 19, 20])
    }

    @Test("NAV-EOE ends its epoch at once, and the epoch after it, once learned, also at once")
    func endOfEpoch() {
        let decoder = NMEADecoder()
        var fixesAfter: [Int] = []
        var fed = 0
        let messages = [Self.pvt(), Self.dop(), Self.eoe(), Self.pvt(after: 1), Self.dop(after: 1), Self.eoe(after: 1)]
        for message in messages {
            fed += 1
            decoder.feed(message) { event in if event.fix != nil { fixesAfter.append(fed) } }
        }
        // The first epoch ends when the next iTOW comes (its ender is learned then); the second at its EOE.
        #expect(fixesAfter == [4, 6])
    }

    @Test("a millisecond's jitter in iTOW stays in the epoch; NAV-DOP's dilutions reach the fix and its error model")
    func jitter() throws {
        let decoded = decode(Self.pvt() + Self.dop(jitter: 1) + Self.eoe() + Self.pvt(after: 1) + Self.dop(after: 1, jitter: -1)
                             + Self.eoe(after: 1))
        #expect(decoded.fixes.count == 2)
        let fix = try #require(decoded.fixes.first)
        #expect(fix.pdop == 2 && fix.hdop == 1.1 && fix.vdop == 1.6)
        #expect(fix.dilutions == Dilutions(x: 0.7, y: 0.9, vertical: 1.6, time: 1.2))
        // gpsd's model from the receiver's east and north dilutions: 15 m each.
        #expect(fix.errorEstimates.longitude.map { abs($0 - 10.5) < 1e-9 } == true)
        #expect(fix.errorEstimates.latitude.map { abs($0 - 13.5) < 1e-9 } == true)
    }

    @Test("RTK: carrier solution float and fixed are gpsd's status 4 and 3; DGPS 2; dead reckoning 5 and 6; time only 7")
    func carrierSolution() {
        func status(fixType: UInt8, flags: UInt8) -> Int? { decode(Self.pvt(fixType: fixType, flags: flags)).fixes.first?.gpsdStatus }
        #expect(status(fixType: 3, flags: 0x01 | 0x02 | 0x80) == 3)
        #expect(status(fixType: 3, flags: 0x01 | 0x02 | 0x40) == 4)
        #expect(status(fixType: 3, flags: 0x01 | 0x02) == 2)
        #expect(status(fixType: 1, flags: 0x01) == 5)
        #expect(status(fixType: 4, flags: 0x01) == 6)
        #expect(status(fixType: 5, flags: 0x01) == 7)
        #expect(status(fixType: 0, flags: 0) == 0)
        #expect(GPSDJSON.tpv(decode(Self.pvt(flags: 0x01 | 0x02 | 0x80)).fixes[0]).contains(#""status":3"#))
    }

    @Test("no fix: no position; a 2D fix keeps the altitude the receiver held, as gpsd reports it")
    func modes() throws {
        let none = try #require(decode(Self.pvt(fixType: 0, flags: 0)).fixes.first)
        #expect(none.mode == .noFix && none.latitude == nil && none.altitudeMSL == nil && none.speed == nil)
        #expect(none.time != nil)
        let twoD = try #require(decode(Self.pvt(fixType: 2)).fixes.first)
        #expect(twoD.mode == .twoD && twoD.latitude == 51.5 && twoD.altitudeMSL == 24.456)
    }

    @Test("time validity: no time unless date and time are valid; an unconfirmed date is said to be unconfirmed")
    func timeValidity() throws {
        let invalid = try #require(decode(Self.pvt(valid: 0x02)).fixes.first)
        #expect(invalid.time == nil && invalid.timeValidity?.dateIsValid == false && invalid.latitude == 51.5)
        let unconfirmed = try #require(decode(Self.pvt(flags2: 0x20 | 0x80)).fixes.first)
        #expect(unconfirmed.timeValidity?.dateIsConfirmed == false && unconfirmed.timeValidity?.timeIsConfirmed == true)
        let unresolved = try #require(decode(Self.pvt(valid: 0x03)).fixes.first)
        #expect(unresolved.time != nil && unresolved.timeValidity?.isUsableForTiming == false)
        // NMEA says nothing of validity.
        #expect(decode(nmea("GPRMC,113018.00,A,5130.000,N,00007.407,W,1.9,0.0,261126,,,A")).fixes.first?.timeValidity == nil)
    }

    @Test("NAV-SOL with NAV-TIMEGPS (u-blox 5 and 6): GPS time less the receiver's leap seconds, the ECEF position and velocity as WGS 84")
    func solution() throws {
        // 51.5° N, 0.1234567° W, 70.123 m above the ellipsoid, in ECEF; moving 1 m/s north.
        var sol = PayloadBuilder(length: 52)
        sol.u4(0, Self.baseTimeOfWeek + 3_000); sol.i4(4, -250_000); sol.i2(8, 2446); sol.u1(10, 3); sol.u1(11, 0x0D)
        sol.i4(12, 397_868_295); sol.i4(16, -857_298); sol.i4(20, 496_841_734); sol.u4(24, 350)
        sol.i4(28, -78); sol.i4(32, 0); sol.i4(36, 62); sol.u4(40, 20); sol.u2(44, 230); sol.u1(47, 7)
        let decoded = decode(ubx(0x01, 0x06, sol.bytes) + Self.timeGPS(after: 3, fraction: -250_000, leapSeconds: 18))
        let fix = try #require(decoded.fixes.first)
        #expect(fix.mode == .threeD && fix.leapSeconds == 18 && fix.satellitesUsed == 7)
        #expect(fix.time?.roundedToMillisecond == UTCTime(posixSeconds: 1_795_692_621, nanoseconds: 0))
        #expect(fix.time?.timeOfDay.nanosecond == 999_750_000)
        #expect(abs((fix.latitude ?? 0) - 51.5) < 1e-6 && abs((fix.longitude ?? 0) + 0.1234567) < 1e-6)
        #expect(abs((fix.altitudeHAE ?? 0) - 70.123) < 0.01 && fix.altitudeMSL == nil)
        #expect(abs((fix.speed ?? 0) - 1) < 0.01 && fix.track.map { $0 < 0.6 || $0 > 359.4 } == true)
        #expect(fix.ecef == ECEFSolution(x: 3_978_682.95, y: -8_572.98, z: 4_968_417.34, positionAccuracy: 3.5,
                                          vx: -0.78, vy: 0, vz: 0.62, velocityAccuracy: 0.2))
        let json = GPSDJSON.tpv(fix)
        #expect(json.contains(#""ecefx":3978682.9500"#) && json.contains(#""ecefpAcc":3.5000"#) && json.contains(#""leapseconds":18"#))
    }

    @Test("leap seconds said in the middle of an epoch do not split it; later epochs are keyed by them")
    func leapSecondsMidEpoch() {
        // A 2009 receiver: 15 leap seconds. NAV-SOL first (keyed by the 18 assumed), then NAV-TIMEGPS says 15.
        func sol(_ seconds: Int) -> [UInt8] {
            var p = PayloadBuilder(length: 52)
            p.u4(0, Self.baseTimeOfWeek + UInt32(seconds * 1000)); p.i2(8, 2446); p.u1(10, 3); p.u1(11, 0x0D)
            p.i4(12, 397_868_295); p.i4(16, -857_298); p.i4(20, 496_841_734)
            return ubx(0x01, 0x06, p.bytes)
        }
        let decoded = decode(sol(0) + Self.timeGPS(leapSeconds: 15) + sol(1) + Self.timeGPS(after: 1, leapSeconds: 15)
                             + sol(2) + Self.timeGPS(after: 2, leapSeconds: 15))
        #expect(decoded.fixes.count == 3)
        #expect(decoded.fixes.map { $0.time?.timeOfDay.second } == [21, 22, 23])
    }

    @Test("NMEA and UBX for the same cycle make one epoch: UBX's fields where it gave them, NMEA's where it did not")
    func mixed() throws {
        // u-blox's NMEA rounds the position and altitude; NAV-PVT gives them in full. HDT and GST
        // come from NMEA only.
        func cycle(_ seconds: Int) -> [UInt8] {
            let time = "1130\(18 + seconds).00"
            return Self.pvt(after: seconds)
                + Array(nmea("GNGGA,\(time),5130.000,N,00007.407,W,1,12,1.0,24.5,M,45.7,M,,").utf8)
                + Array(nmea("GNRMC,\(time),A,5130.000,N,00007.407,W,1.9,0.0,261126,,,A").utf8)
                + Array(nmea("GNHDT,123.4,T").utf8)
                + Self.eoe(after: seconds)
        }
        let decoded = decode(cycle(0) + cycle(1) + cycle(2))
        #expect(decoded.rejects.isEmpty)
        #expect(decoded.fixes.count == 3, "one epoch per cycle, not one per protocol")
        let fix = try #require(decoded.fixes.last)
        #expect(fix.latitude == 51.5 && fix.longitude == -0.1234567 && fix.altitudeMSL == 24.456)
        #expect(fix.speed == 1, "NAV-PVT's speed, not RMC's 1.9 knots")
        #expect(fix.heading == 123.4 && fix.quality == .gps)
        #expect(Set(decoded.fixes.compactMap(\.time)).count == 3)
    }

    /// A NAV-SAT of GPS 5 (used, 44°, 201°, 37 dB-Hz, -3.3 m, quality 7, healthy) and Galileo 12
    /// (not tracked, unhealthy).
    static func sat(after seconds: Int = 0) -> [UInt8] {
        var p = PayloadBuilder(length: 8 + 24)
        p.u4(0, baseTimeOfWeek + UInt32(seconds * 1000)); p.u1(4, 1); p.u1(5, 2)
        p.u1(8, 0); p.u1(9, 5); p.u1(10, 37); p.i1(11, 44); p.i2(12, 201); p.i2(14, -33); p.u4(16, 7 | 0x08 | 0x10)
        p.u1(20, 2); p.u1(21, 12); p.u1(22, 0); p.i1(23, 10); p.i2(24, 90); p.i2(26, 0); p.u4(28, 1 | 0x20)
        return ubx(0x01, 0x35, p.bytes)
    }

    /// A NAV-SIG of GPS 5 on L1 C/A (sigid 0) and L2 CL (sigid 3), both used.
    static func sig(after seconds: Int = 0) -> [UInt8] {
        var p = PayloadBuilder(length: 8 + 32)
        p.u4(0, baseTimeOfWeek + UInt32(seconds * 1000)); p.u1(4, 0); p.u1(5, 2)
        let signals: [(sigid: UInt8, cno: UInt8)] = [(0, 37), (3, 30)]
        for (index, signal) in signals.enumerated() {
            let block = 8 + 16 * index
            p.u1(block, 0); p.u1(block + 1, 5); p.u1(block + 2, signal.sigid); p.i2(block + 4, -20); p.u1(block + 6, signal.cno)
            p.u1(block + 7, 7); p.u2(block + 10, 1 | 0x08)
        }
        return ubx(0x01, 0x43, p.bytes)
    }

    @Test("NAV-SAT makes the epoch's sky, with gpsd's gnssid, svid, qual, health and prRes, and takes the place of its GSV")
    func satellites() throws {
        let gsv = Array(nmea("GPGSV,1,1,01,07,10,065,30").utf8)
        let decoded = decode(Self.pvt() + gsv + Self.sat() + Self.eoe() + Self.pvt(after: 1) + Self.sat(after: 1) + gsv + Self.eoe(after: 1))
        #expect(decoded.rejects.isEmpty)
        let skies = decoded.epochs.compactMap(\.sky)
        #expect(skies.count == 2)
        for sky in skies {
            #expect(sky.views.count == 1 && sky.satelliteCount == 2 && sky.usedCount == 1, "the GSV view is left out")
            let gps = try #require(sky.views.first?.satellites.first)
            #expect(gps.id == SatelliteID(constellation: .gps, svid: 5) && gps.elevation == 44 && gps.azimuth == 201)
            #expect(gps.snr == 37 && gps.used && gps.quality == 7 && gps.health == .healthy && gps.pseudorangeResidual == -3.3)
        }
        var writer = JSONWriter()
        GPSDJSON.writeSKY(skies[0], to: &writer)
        let json = String(decoding: writer.bytes, as: UTF8.self)
        #expect(json.contains(#"{"PRN":5,"gnssid":0,"svid":5,"el":44.0,"az":201.0,"ss":37.0,"used":true,"prRes":-3.3,"qual":7,"health":1}"#), "\(json)")
        #expect(json.contains(#"{"PRN":312,"gnssid":2,"svid":12,"el":10.0,"az":90.0,"ss":0.0,"used":false,"prRes":0.0,"qual":1,"health":2}"#), "\(json)")
    }

    @Test("NAV-SIG with NAV-SAT: one entry per signal with gpsd's sigid and its satellite's elevation and azimuth, then the satellites with no signal")
    func signals() throws {
        let decoded = decode(Self.pvt() + Self.sig() + Self.sat() + Self.eoe())
        let sky = try #require(decoded.epochs.compactMap(\.sky).first)
        #expect(sky.views.count == 1)
        let listed = sky.views[0].satellites
        #expect(listed.map(\.signal) == [0, 3, nil])
        #expect(listed.map(\.elevation) == [44, 44, 10])
        #expect(listed.map(\.used) == [true, true, false])
        var writer = JSONWriter()
        GPSDJSON.writeSKY(sky, to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""svid":5,"sigid":3,"el":44.0"#))
    }

    static func hnr(_ milliseconds: Int, fixType: UInt8 = 4) -> [UInt8] {
        UBXTestFrames.hnrPVT(afterMilliseconds: milliseconds, longitude: Int32(-1_234_567 + milliseconds), fixType: fixType)
    }

    static func navigation(after seconds: Int) -> [UInt8] { pvt(after: seconds) + sat(after: seconds) + dop(after: seconds) + eoe(after: seconds) }

    @Test("HNR-PVT between navigation epochs: a fix of its own each, at once; the navigation epochs, late as a receiver sends them, are what they are without it")
    func highRate() throws {
        // A NEO-M8U at 5 Hz HNR: the navigation epoch of a second arrives after the HNR fixes of
        // its first 400 ms.
        let bytes = Self.hnr(0) + Self.hnr(200) + Self.hnr(400) + Self.navigation(after: 0)
            + Self.hnr(600) + Self.hnr(800) + Self.hnr(1000) + Self.hnr(1200) + Self.hnr(1400) + Self.navigation(after: 1)
            + Self.hnr(1600)
        let decoded = decode(bytes)
        #expect(decoded.rejects.isEmpty)
        let milliseconds = decoded.fixes.map { Int(($0.time?.roundedToMillisecond.timeOfDay.nanosecondsSinceMidnight ?? 0) / 1_000_000) - 41_418_000 }
        #expect(milliseconds == [0, 200, 400, 600, 800, 1000, 1200, 1400, 0, 1000, 1600])
        let navigationOnly = decode(Self.navigation(after: 0) + Self.navigation(after: 1)).fixes
        #expect(navigationOnly.count == 2)
        #expect(Array(decoded.fixes[8...9]) == navigationOnly)
        #expect(decoded.fixes.indices.filter { !decoded.fixes[$0].isHighRate } == [8, 9])

        let high = decoded.fixes[3]
        #expect(high.mode == .threeD && high.gpsdStatus == 6)
        #expect(high.latitude == 51.5 && high.longitude == -0.1233967)
        #expect(high.altitudeMSL == 24.5 && high.altitudeHAE == 70.5 && high.geoidSeparation == 46)
        #expect(high.speed == 2.5 && high.track == 90)
        #expect(high.accuracy == ReceiverAccuracy(horizontal: 1.2, vertical: 2.1, speed: 0.15, track: 15))
        #expect(high.timeValidity == TimeValidity(dateIsValid: true, timeIsValid: true, isFullyResolved: true))
        #expect(high.satellitesUsed == nil && high.pdop == nil)
        let json = GPSDJSON.tpv(high)
        #expect(json.contains(#""time":"2026-11-26T11:30:18.600Z""#) && json.contains(#""eph":1.200"#))
        // Climb from the high-rate fix before, 200 ms earlier at the same altitude.
        #expect(high.climb == 0)
        // Only the navigation epochs have a sky.
        let epochs = decoded.epochs.filter { $0.fix != nil }
        #expect(epochs.count == 11)
        #expect(epochs.indices.filter { !epochs[$0].views.isEmpty } == [8, 9])
    }

    @Test("HNR-PVT with no fix: mode 1, no position; with no valid time, a fix without one; split anywhere, the same fixes")
    func highRateNoFix() throws {
        let noFix = try #require(decode(Self.hnr(0, fixType: 0)).fixes.first)
        #expect(noFix.mode == .noFix && noFix.latitude == nil && noFix.speed == nil && noFix.time != nil)
        let timeless = try #require(decode(UBXTestFrames.hnrPVT(afterMilliseconds: 0, valid: 0x04)).fixes.first)
        #expect(timeless.time == nil && timeless.latitude == 51.5 && timeless.mode == .threeD)
        let bytes = Self.hnr(0) + Self.hnr(200) + Self.navigation(after: 0) + Self.hnr(400) + Self.navigation(after: 1)
        let whole = decode(bytes).fixes
        for size in [1, 3, 7, 64] {
            #expect(decode(bytes, chunkSizes: [size]).fixes == whole)
        }
    }

    @Test("HNR-PVT leaves a navigation epoch's reception time its first message's")
    func highRateReception() throws {
        let decoder = NMEADecoder()
        var fixes: [Fix] = []
        let handle: (NMEADecoder.Event) -> Void = { if let fix = $0.fix { fixes.append(fix) } }
        func feed(_ bytes: [UInt8], at second: Int64) {
            bytes.withUnsafeBytes { decoder.feed($0, receivedAt: UTCTime(posixSeconds: second, nanoseconds: 0), handle) }
        }
        feed(Self.pvt(), at: 100)
        feed(Self.hnr(400), at: 101)
        feed(Self.dop() + Self.eoe(), at: 102)
        feed(Self.hnr(600), at: 103)
        feed(Self.pvt(after: 1), at: 104)
        decoder.finish(handle)
        #expect(fixes.map { $0.receivedAt?.posixTime.seconds } == [101, 103, 100, 104])
    }

    @Test("a UBX message too short for its time of week is counted and placed in no epoch")
    func noTimeOfWeek() {
        let decoded = decode(Self.pvt() + ubx(0x01, 0x04, [0x01, 0x02]) + Self.pvt(after: 1))
        #expect(decoded.fixes.count == 2)
        #expect(decoded.rejects.count == 1)
    }
}

extension GPSDJSON {
    /// `fix` as a TPV line.
    static func tpv(_ fix: Fix) -> String {
        var writer = JSONWriter()
        writeTPV(fix, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
