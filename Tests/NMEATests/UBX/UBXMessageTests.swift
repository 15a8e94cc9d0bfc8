import NMEA
import TestSupport
import Testing

@Suite("UBX messages", .mayBlock)
struct UBXMessageTests {
    /// A NAV-PVT of a ZED-F9P in RTK fixed, every field set.
    static func pvt(length: Int = 92) -> PayloadBuilder {
        var p = PayloadBuilder(length: length)
        p.u4(0, 387_018_000)            // iTOW
        p.u2(4, 2026); p.u1(6, 11); p.u1(7, 26); p.u1(8, 11); p.u1(9, 30); p.u1(10, 18)
        p.u1(11, 0x0F)                  // date, time, fully resolved, magnetic valid
        p.u4(12, 25)                    // tAcc, ns
        p.i4(16, -1_500)                // nano: just before 11:30:18
        p.u1(20, 3)                     // 3D
        p.u1(21, 0x01 | 0x02 | 0x20 | 0x80)   // fix OK, differential, vehicle heading, RTK fixed
        p.u1(22, 0x20 | 0x40 | 0x80)    // date and time confirmed
        p.u1(23, 24)
        p.i4(24, 44_123_456_7)          // 44.1234567° E
        p.i4(28, -33_765_432_1)         // 33.7654321° S
        p.i4(32, 123_456)               // 123.456 m
        p.i4(36, 100_000)               // 100 m
        p.u4(40, 14); p.u4(44, 21)      // 14 mm, 21 mm
        p.i4(48, 1_000); p.i4(52, -2_000); p.i4(56, 300)
        p.i4(60, 2_236); p.i4(64, 29_656_500)
        p.u4(68, 50); p.u4(72, 1_234_567)
        p.u2(76, 125)
        p.i4(84, 4_500_000)
        p.i2(88, 215); p.u2(90, 30)
        return p
    }

    @Test("NAV-PVT: every field, at its offset and in its unit")
    func navPVT() throws {
        let decoded = try #require(decodeUBX(ubx(0x01, 0x07, Self.pvt().bytes)))
        guard case .navPVT(let pvt) = decoded.message else { Issue.record("not NAV-PVT"); return }
        #expect(decoded.malformed.isEmpty)
        #expect(pvt.timeOfWeek == 387_018_000)
        #expect(pvt.time?.date == CalendarDate(year: 2026, month: 11, day: 26))
        let nanoseconds: Int64 = ((11 * 60 + 30) * 60 + 18) * 1_000_000_000 - 1_500
        #expect(pvt.time?.timeOfDay.nanosecondsSinceMidnight == nanoseconds)
        #expect(pvt.dateIsValid && pvt.timeIsValid && pvt.timeIsFullyResolved)
        #expect(pvt.dateIsConfirmed == true && pvt.timeIsConfirmed == true)
        #expect(pvt.timeAccuracy == 25e-9)
        #expect(pvt.fixType == .fix3D)
        #expect(pvt.fixIsValid && pvt.isDifferential)
        #expect(pvt.carrierSolution == .fixed)
        #expect(pvt.satellitesUsed == 24)
        #expect(abs(pvt.longitude! - 44.1234567) < 1e-9)
        #expect(abs(pvt.latitude! + 33.7654321) < 1e-9)
        #expect(pvt.heightAboveEllipsoid == 123.456)
        #expect(pvt.altitudeMSL == 100)
        #expect(pvt.horizontalAccuracy == 0.014)
        #expect(pvt.verticalAccuracy == 0.021)
        #expect(pvt.velocityNorth == 1 && pvt.velocityEast == -2 && pvt.velocityDown == 0.3)
        #expect(pvt.groundSpeed == 2.236)
        #expect(abs(pvt.headingOfMotion! - 296.565) < 1e-9)
        #expect(pvt.speedAccuracy == 0.05)
        #expect(abs(pvt.headingAccuracy! - 12.34567) < 1e-9)
        #expect(pvt.pdop == 1.25)
        #expect(pvt.vehicleHeading == 45)
        #expect(pvt.magneticDeclination == 2.15)
        #expect(pvt.magneticDeclinationAccuracy == 0.3)
    }

    @Test("NAV-PVT of a u-blox 7 (84 bytes): no vehicle heading or declination, nothing malformed")
    func navPVTShortVersion() throws {
        let decoded = try #require(decodeUBX(ubx(0x01, 0x07, Array(Self.pvt(length: 92).bytes.prefix(84)))))
        guard case .navPVT(let pvt) = decoded.message else { Issue.record("not NAV-PVT"); return }
        #expect(decoded.malformed.isEmpty)
        #expect(pvt.vehicleHeading == nil && pvt.magneticDeclination == nil)
        #expect(pvt.pdop == 1.25)
    }

    @Test("NAV-PVT: a bad field costs that field, and the rest is read")
    func navPVTBadFields() throws {
        var p = Self.pvt()
        p.u1(6, 13)                     // month 13
        p.u1(20, 9)                     // fix type 9
        p.i4(28, 950_000_000)           // latitude 95°
        p.u1(21, 0x01 | 0xC0)           // carrier solution 3
        let decoded = try #require(decodeUBX(ubx(0x01, 0x07, p.bytes)))
        guard case .navPVT(let pvt) = decoded.message else { Issue.record("not NAV-PVT"); return }
        #expect(pvt.time == nil && pvt.fixType == nil && pvt.latitude == nil && pvt.carrierSolution == nil)
        #expect(Set(decoded.malformed.map(\.fieldIndex)) == [4, 20, 28, 21])
        #expect(abs(pvt.longitude! - 44.1234567) < 1e-9)
        #expect(pvt.altitudeMSL == 100)
    }

    @Test("NAV-PVT: the time is not read unless the receiver marks date and time valid; an invalid position is none")
    func navPVTValidity() throws {
        var p = Self.pvt()
        p.u1(11, 0x02)                  // time valid, date not
        p.u2(78, 0x01)                  // invalidLlh
        let decoded = try #require(decodeUBX(ubx(0x01, 0x07, p.bytes)))
        guard case .navPVT(let pvt) = decoded.message else { Issue.record("not NAV-PVT"); return }
        #expect(pvt.time == nil && !pvt.dateIsValid && pvt.timeIsValid)
        #expect(pvt.latitude == nil && pvt.longitude == nil && pvt.altitudeMSL == nil)
        #expect(pvt.horizontalAccuracy == 0.014)
        #expect(decoded.malformed.isEmpty)
    }

    @Test("a payload shorter than its type is noted once and costs only the fields it lacks")
    func shortPayload() throws {
        let decoded = try #require(decodeUBX(ubx(0x01, 0x07, Array(Self.pvt().bytes.prefix(40)))))
        guard case .navPVT(let pvt) = decoded.message else { Issue.record("not NAV-PVT"); return }
        #expect(decoded.malformed.map(\.fieldIndex) == [40])
        #expect(pvt.altitudeMSL == 100)
        #expect(pvt.horizontalAccuracy == nil && pvt.pdop == nil)
    }

    @Test("NAV-DOP: the seven dilutions; 99.99 is none")
    func navDOP() throws {
        var p = PayloadBuilder(length: 18)
        for (index, value) in [180, 150, 90, 120, 95, 60, 70].enumerated() { p.u2(4 + 2 * index, UInt16(value)) }
        p.u2(8, 9999)
        guard case .navDOP(let dop)? = decodeUBX(ubx(0x01, 0x04, p.bytes))?.message else { Issue.record("not NAV-DOP"); return }
        #expect(dop.gdop == 1.8 && dop.pdop == 1.5 && dop.tdop == nil && dop.vdop == 1.2 && dop.hdop == 0.95)
        #expect(dop.ndop == 0.6 && dop.edop == 0.7)
    }

    @Test("NAV-TIMEUTC: the time when UTC is valid, a negative nano before the second; none when it is not")
    func navTimeUTC() throws {
        var p = PayloadBuilder(length: 20)
        p.u4(0, 1000); p.u4(4, 30); p.i4(8, -250_000_000)
        p.u2(12, 2027); p.u1(14, 1); p.u1(15, 1); p.u1(16, 0); p.u1(17, 0); p.u1(18, 0)
        p.u1(19, 0x07 | 0x30)
        guard case .navTimeUTC(let utc)? = decodeUBX(ubx(0x01, 0x21, p.bytes))?.message else { Issue.record("not NAV-TIMEUTC"); return }
        #expect(utc.time?.description == "2026-12-31T23:59:59.750Z")
        #expect(utc.utcIsValid && utc.weekIsValid && utc.timeOfWeekIsValid && utc.utcStandard == 3)
        #expect(utc.timeAccuracy == 30e-9)
        p.u1(19, 0x03)
        guard case .navTimeUTC(let unresolved)? = decodeUBX(ubx(0x01, 0x21, p.bytes))?.message else { return }
        #expect(unresolved.time == nil && !unresolved.utcIsValid)
    }

    @Test("NAV-TIMEGPS: week and leap seconds only when valid")
    func navTimeGPS() throws {
        var p = PayloadBuilder(length: 16)
        p.u4(0, 5000); p.i4(4, -1234); p.i2(8, 2394); p.i1(10, 18); p.u1(11, 0x07); p.u4(12, 12)
        guard case .navTimeGPS(let gps)? = decodeUBX(ubx(0x01, 0x20, p.bytes))?.message else { Issue.record("not NAV-TIMEGPS"); return }
        #expect(gps.week == 2394 && gps.leapSeconds == 18 && gps.timeOfWeekIsValid && gps.fractionalTimeOfWeek == -1234)
        p.u1(11, 0x03)
        guard case .navTimeGPS(let early)? = decodeUBX(ubx(0x01, 0x20, p.bytes))?.message else { return }
        #expect(early.leapSeconds == nil && early.week == 2394)
    }

    @Test("NAV-HPPOSLLH: the coarse and fine parts added; none when marked invalid")
    func navHPPOSLLH() throws {
        var p = PayloadBuilder(length: 36)
        p.u4(4, 777)
        p.i4(8, 1_234_567_891); p.i1(24, 23)       // 123.4567891 + 0.000000023
        p.i4(12, -451_234_567); p.i1(25, -45)
        p.i4(16, 50_123); p.i1(26, 4)               // 50.123 m + 0.4 mm
        p.i4(20, 10_000); p.i1(27, -3)
        p.u4(28, 141); p.u4(32, 205)
        guard case .navHPPOSLLH(let hp)? = decodeUBX(ubx(0x01, 0x14, p.bytes))?.message else { Issue.record("not NAV-HPPOSLLH"); return }
        #expect(hp.timeOfWeek == 777)
        #expect(abs(hp.longitude! - 123.456789123) < 1e-12)
        #expect(abs(hp.latitude! + 45.123456745) < 1e-12)
        #expect(abs(hp.heightAboveEllipsoid! - 50.1234) < 1e-9)
        #expect(abs(hp.altitudeMSL! - 9.9997) < 1e-9)
        #expect(abs(hp.horizontalAccuracy! - 0.0141) < 1e-12 && abs(hp.verticalAccuracy! - 0.0205) < 1e-12)
        p.u1(3, 1)
        guard case .navHPPOSLLH(let invalid)? = decodeUBX(ubx(0x01, 0x14, p.bytes))?.message else { return }
        #expect(invalid.latitude == nil && invalid.heightAboveEllipsoid == nil && invalid.horizontalAccuracy != nil)
    }

    @Test("NAV-SOL, NAV-POSLLH, NAV-VELNED and NAV-EOE: the older receivers' fix, in their units")
    func olderMessages() throws {
        var sol = PayloadBuilder(length: 52)
        sol.u4(0, 42); sol.i2(8, 1600); sol.u1(10, 3); sol.u1(11, 0x0D)
        sol.i4(12, 390_000_012); sol.i4(16, -5_000_000); sol.i4(20, 500_000_000); sol.u4(24, 350)
        sol.i4(28, 10); sol.u4(40, 20); sol.u2(44, 230); sol.u1(47, 7)
        guard case .navSOL(let s)? = decodeUBX(ubx(0x01, 0x06, sol.bytes))?.message else { Issue.record("not NAV-SOL"); return }
        #expect(s.fixType == .fix3D && s.fixIsValid && !s.isDifferential && s.week == 1600 && s.timeOfWeekIsValid)
        #expect(s.ecefX == 3_900_000.12 && s.ecefY == -50_000 && s.ecefZ == 5_000_000 && s.positionAccuracy == 3.5)
        #expect(s.ecefVX == 0.1 && s.speedAccuracy == 0.2 && s.pdop == 2.3 && s.satellitesUsed == 7)

        var llh = PayloadBuilder(length: 28)
        llh.i4(4, -1_234_567); llh.i4(8, 515_000_000); llh.i4(12, 70_000); llh.i4(16, 25_000); llh.u4(20, 2500); llh.u4(24, 4000)
        guard case .navPOSLLH(let p)? = decodeUBX(ubx(0x01, 0x02, llh.bytes))?.message else { Issue.record("not NAV-POSLLH"); return }
        #expect(p.longitude == -0.1234567 && p.latitude == 51.5 && p.heightAboveEllipsoid == 70 && p.altitudeMSL == 25)
        #expect(p.horizontalAccuracy == 2.5 && p.verticalAccuracy == 4)

        var vel = PayloadBuilder(length: 36)
        vel.i4(4, 100); vel.i4(8, -50); vel.i4(12, 5); vel.u4(16, 112); vel.u4(20, 111); vel.i4(24, 33_300_000)
        vel.u4(28, 30); vel.u4(32, 500_000)
        guard case .navVELNED(let v)? = decodeUBX(ubx(0x01, 0x12, vel.bytes))?.message else { Issue.record("not NAV-VELNED"); return }
        #expect(v.velocityNorth == 1 && v.velocityEast == -0.5 && v.velocityDown == 0.05 && v.speed == 1.12)
        #expect(v.groundSpeed == 1.11 && v.heading == 333 && v.speedAccuracy == 0.3 && v.headingAccuracy == 5)

        guard case .navEOE(let eoe)? = decodeUBX(ubx(0x01, 0x61, [0x40, 0x42, 0x0F, 0x00]))?.message else { Issue.record("not NAV-EOE"); return }
        #expect(eoe.timeOfWeek == 1_000_000)
    }

    @Test("NAV-SAT: each satellite, elevation and azimuth out of range as unknown; a count past the payload noted")
    func navSAT() throws {
        var p = PayloadBuilder(length: 8 + 12 * 2)
        p.u4(0, 99); p.u1(4, 1); p.u1(5, 3)        // three announced, two present
        p.u1(8, 2); p.u1(9, 11); p.u1(10, 42); p.i1(11, 35); p.i2(12, 360); p.i2(14, -15)
        p.u4(16, 0x07 | 0x08 | 0x10 | 0x40)
        p.u1(20, 6); p.u1(21, 4); p.u1(22, 0); p.i1(23, -91); p.i2(24, 400); p.u4(28, 0x20)
        let decoded = try #require(decodeUBX(ubx(0x01, 0x35, p.bytes)))
        guard case .navSAT(let sat) = decoded.message else { Issue.record("not NAV-SAT"); return }
        #expect(decoded.malformed.map(\.fieldIndex) == [5])
        #expect(sat.satellites.count == 2)
        let galileo = sat.satellites[0]
        #expect(galileo.system == .galileo && galileo.svID == 11 && galileo.carrierToNoise == 42)
        #expect(galileo.elevation == 35 && galileo.azimuth == 0 && galileo.pseudorangeResidual == -1.5)
        #expect(galileo.isUsed && galileo.health == .healthy && galileo.qualityIndicator == 7 && galileo.hasCorrections)
        let glonass = sat.satellites[1]
        #expect(glonass.system == .glonass && glonass.elevation == nil && glonass.azimuth == nil)
        #expect(!glonass.isUsed && glonass.health == .unhealthy && glonass.qualityIndicator == 0)
    }

    @Test("NAV-SAT of an unknown version is not read as version 1")
    func navSATVersion() throws {
        var p = PayloadBuilder(length: 20)
        p.u1(4, 2); p.u1(5, 1)
        let decoded = try #require(decodeUBX(ubx(0x01, 0x35, p.bytes)))
        guard case .navSAT(let sat) = decoded.message else { return }
        #expect(sat.satellites.isEmpty && decoded.malformed.map(\.fieldIndex) == [4])
    }

    @Test("NAV-SVINFO: the old single satellite numbers become system and number")
    func navSVINFO() throws {
        var p = PayloadBuilder(length: 8 + 12 * 4)
        p.u1(4, 4)
        for (index, number) in [7, 70, 133, 255].enumerated() {
            let block = 8 + 12 * index
            p.u1(block + 1, UInt8(number)); p.u1(block + 2, index == 0 ? 0x01 : 0x10); p.u1(block + 3, 0x47)
            p.u1(block + 4, 38); p.i1(block + 5, 12); p.i2(block + 6, 270); p.i4(block + 8, -250)
        }
        guard case .navSVINFO(let info)? = decodeUBX(ubx(0x01, 0x30, p.bytes))?.message else { Issue.record("not NAV-SVINFO"); return }
        #expect(info.satellites.map { "\($0.gnssID):\($0.svID)" } == ["0:7", "6:6", "1:133"])
        #expect(info.satellites[0].isUsed && info.satellites[0].health == nil && info.satellites[0].qualityIndicator == 7)
        #expect(info.satellites[1].health == .unhealthy && info.satellites[1].pseudorangeResidual == -2.5)
    }

    @Test("NAV-SIG: each signal, with its ids, health and use")
    func navSIG() throws {
        var p = PayloadBuilder(length: 8 + 16)
        p.u4(0, 5); p.u1(4, 0); p.u1(5, 1)
        p.u1(8, 0); p.u1(9, 12); p.u1(10, 3); p.u1(11, 0); p.i2(12, 17); p.u1(14, 40); p.u1(15, 7)
        p.u2(18, 0x01 | 0x08 | 0x10)
        guard case .navSIG(let sig)? = decodeUBX(ubx(0x01, 0x43, p.bytes))?.message else { Issue.record("not NAV-SIG"); return }
        let signal = try #require(sig.signals.first)
        #expect(signal.gnssID == 0 && signal.svID == 12 && signal.signalID == 3 && signal.pseudorangeResidual == 1.7)
        #expect(signal.carrierToNoise == 40 && signal.qualityIndicator == 7 && signal.health == .healthy)
        #expect(signal.pseudorangeIsUsed && signal.carrierRangeIsUsed)
    }

    @Test("the decoder hands out a message's unreadable fields as rejects right after its frame")
    func rejectsFollowFrame() throws {
        var p = Self.pvt()
        p.u1(20, 9)
        let frame = ubx(0x01, 0x07, p.bytes)
        let decoded = decode(frame)
        #expect(decoded.frames == [frame])
        let reject = try #require(decoded.rejects.first)
        #expect(reject.reason == .malformedField && reject.address == "NAV-PVT" && reject.fieldIndex == 20)
        #expect(UBXMessage.decodedKinds.count == 17)
    }

    @Test("HNR-PVT: every field, at its offset and in its unit; the nanoseconds right after the validity byte")
    func hnrPVT() throws {
        var p = PayloadBuilder(length: 72)
        p.u4(0, 387_018_250)
        p.u2(4, 2026); p.u1(6, 11); p.u1(7, 26); p.u1(8, 11); p.u1(9, 30); p.u1(10, 18)
        p.u1(11, 0x07)
        p.i4(12, 250_000_123)
        p.u1(16, 4)                     // satellites and dead reckoning
        p.u1(17, 0x01 | 0x02 | 0x10)    // fix OK, differential, vehicle heading valid
        p.i4(20, 44_123_456_7); p.i4(24, -33_765_432_1)
        p.i4(28, 123_456); p.i4(32, 100_000)
        p.i4(36, 2_236); p.i4(40, 2_240)
        p.i4(44, 29_656_500); p.i4(48, 29_000_000)
        p.u4(52, 1_400); p.u4(56, 2_100); p.u4(60, 50); p.u4(64, 1_234_567)
        let decoded = try #require(decodeUBX(ubx(0x28, 0x00, p.bytes)))
        guard case .hnrPVT(let hnr) = decoded.message else { Issue.record("not HNR-PVT"); return }
        #expect(decoded.malformed.isEmpty)
        #expect(hnr.timeOfWeek == 387_018_250)
        #expect(hnr.time?.date == CalendarDate(year: 2026, month: 11, day: 26))
        #expect(hnr.time?.timeOfDay == TimeOfDay(hour: 11, minute: 30, second: 18, nanosecond: 250_000_123))
        #expect(hnr.dateIsValid && hnr.timeIsValid && hnr.timeIsFullyResolved)
        #expect(hnr.fixType == .satellitesAndDeadReckoning && hnr.fixIsValid && hnr.isDifferential)
        #expect(abs(hnr.longitude! - 44.1234567) < 1e-9 && abs(hnr.latitude! + 33.7654321) < 1e-9)
        #expect(hnr.heightAboveEllipsoid == 123.456 && hnr.altitudeMSL == 100)
        #expect(hnr.groundSpeed == 2.236)
        #expect(abs(hnr.headingOfMotion! - 296.565) < 1e-9 && hnr.vehicleHeading == 290)
        #expect(hnr.horizontalAccuracy == 1.4 && hnr.verticalAccuracy == 2.1 && hnr.speedAccuracy == 0.05)
        #expect(abs(hnr.headingAccuracy! - 12.34567) < 1e-9)
    }

    @Test("HNR-PVT: a bad field costs that field; no time unless date and time are valid; a short payload costs what it lacks")
    func hnrPVTBadFields() throws {
        var p = PayloadBuilder(length: 72)
        p.u2(4, 2026); p.u1(6, 13); p.u1(7, 26)   // month 13
        p.u1(11, 0x03)
        p.u1(16, 9)                                // fix type 9
        p.i4(20, 1_900_000_000)                    // longitude 190°
        p.i4(24, 515_000_000)
        p.i4(36, 1_000)
        let decoded = try #require(decodeUBX(ubx(0x28, 0x00, p.bytes)))
        guard case .hnrPVT(let hnr) = decoded.message else { Issue.record("not HNR-PVT"); return }
        #expect(Set(decoded.malformed.map(\.fieldIndex)) == [4, 16, 20])
        #expect(hnr.time == nil && hnr.fixType == nil && hnr.longitude == nil)
        #expect(hnr.latitude == 51.5 && hnr.groundSpeed == 1)
        #expect(hnr.vehicleHeading == nil)

        p.u1(6, 11); p.u1(11, 0x01)                // the date valid, the time not
        guard case .hnrPVT(let dateOnly)? = decodeUBX(ubx(0x28, 0x00, p.bytes))?.message else { Issue.record("not HNR-PVT"); return }
        #expect(dateOnly.time == nil && dateOnly.dateIsValid && !dateOnly.timeIsValid)

        p.u1(16, 3); p.i4(20, 0)
        let short = try #require(decodeUBX(ubx(0x28, 0x00, Array(p.bytes.prefix(40)))))
        guard case .hnrPVT(let cut) = short.message else { Issue.record("not HNR-PVT"); return }
        #expect(short.malformed.map(\.fieldIndex) == [40])
        #expect(cut.latitude == 51.5 && cut.groundSpeed == 1 && cut.headingOfMotion == nil && cut.horizontalAccuracy == nil)
    }
}
