import NMEARendering
import Testing
@testable import NMEA
import TestSupport

@Suite("Epoch assembler", .mayBlock)
struct EpochAssemblerTests {
    @Test("a SiRF cycle merges GGA, GSA and RMC into one fix per second")
    func sirfCycle() throws {
        let result = decode(try fixture("sirf-cycle.nmea"))
        #expect(result.fixes.count == 20)
        let first = try #require(result.fixes.first)
        #expect(first.time?.description == "2014-12-31T03:07:19.000Z")
        #expect(abs(first.latitude! + 37.784788333) < 1e-8)
        #expect(first.altitudeMSL == 59.9)
        #expect(first.geoidSeparation == 23.7)
        #expect(abs(first.altitudeHAE! - 83.6) < 1e-9)
        #expect(abs(first.speed! - 5) < 0.005)
        #expect(first.track == 45)
        #expect(first.mode == .threeD)
        #expect(first.quality == .gps)
        #expect(first.satellitesUsed == 8)
        #expect(first.hdop == 1.1 && first.pdop == 1.8 && first.vdop == 1.5)
        #expect(result.fixes.last?.time?.description == "2014-12-31T03:07:38.000Z")
        let second = result.fixes[1]
        #expect(abs(second.climb! - 0.5) < 1e-9)
    }

    @Test("an epoch carries the views completed since the last fix, its dilutions and then its fix; views with no fix come as skies alone")
    func epochsCarryTheirSky() throws {
        var text = nmea("GPGSV,2,1,05,05,40,083,46,13,31,212,41,15,20,300,38,18,65,120,44")
        text += nmea("GPGSV,2,2,05,23,12,030,30")
        text += nmea("GLGSV,1,1,01,70,45,100,40")
        text += nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,1,05,1.9,10.2,M,47.0,M,,")
        text += nmea("GPGSA,A,3,05,13,15,18,23,,,,,,,,2.6,1.9,1.8")
        text += nmea("GPGGA,120001.00,5200.0000,N,00400.0000,W,1,05,1.8,10.2,M,47.0,M,,")
        text += nmea("GPGGA,120002.00,5200.0000,N,00400.0000,W,1,05,1.7,10.2,M,47.0,M,,")
        text += nmea("GPGSV,1,1,01,05,41,083,45")
        let result = decode(text)
        try #require(result.epochs.count == 3)
        let first = result.epochs[0]
        #expect(first.views.map(\.talker.description) == ["GP", "GL"])
        #expect(first.fix?.timeOfDay?.description == "12:00:00.000")
        #expect(first.sky?.hdop == 1.9 && first.sky?.satellitesUsed == 5 && first.sky?.pdop == 2.6)
        // An epoch with no view of its own: a sky of dilutions alone.
        #expect(result.epochs[1].views.isEmpty && result.epochs[1].sky?.hdop == 1.8)
        // The GSV that came during the last epoch is that epoch's.
        #expect(result.epochs[2].views.count == 1 && result.epochs[2].fix?.timeOfDay?.description == "12:00:02.000")
        #expect(result.statistics.fixes == 3 && result.statistics.satelliteViews == 3)
        // A receiver that reports views without fixes: a sky each time a round starts again,
        // and the last when the input ends.
        let alone = decode(nmea("GPGSV,1,1,01,05,41,083,45") + nmea("GLGSV,1,1,01,70,45,100,40")
            + nmea("GPGSV,1,1,01,05,42,083,44"))
        #expect(alone.epochs.map { $0.fix == nil } == [true, true])
        #expect(alone.epochs.map(\.views.count) == [2, 1])
    }

    @Test("leap seconds from Garmin's PGRMF hold for that epoch and every later one, until a PGRMF says otherwise; none before (an empty field says nothing)")
    func leapSeconds() throws {
        func epoch(_ time: String, leap: Int?) -> String {
            nmea("GPRMC,\(time),A,5213.1439,N,02100.6511,E,000.0,226.0,160305,004.2,E,A")
                + nmea("GPGGA,\(time),5213.1439,N,02100.6511,E,1,08,1.1,137.2,M,36.2,M,,")
                + nmea("PGRMF,290,293895,160305,\(time),\(leap.map(String.init) ?? ""),5213.1439,N,02100.6511,E,A,2,0,226,2,1")
        }
        let result = decode(epoch("093801", leap: nil) + epoch("093802", leap: 13) + epoch("093803", leap: nil)
                            + epoch("093804", leap: 14) + epoch("093805", leap: nil))
        #expect(result.fixes.map(\.leapSeconds) == [nil, 13, 13, 14, 14])
        var writer = JSONWriter()
        GPSDJSON.writeTPV(result.fixes[2], to: &writer)
        let line = String(decoding: writer.bytes, as: UTF8.self)
        #expect(line.contains(#""time":"2005-03-16T09:38:03.000Z","leapseconds":13,"ept":"#), "\(line)")
        writer = JSONWriter()
        GPSDJSON.writeTPV(result.fixes[0], to: &writer)
        #expect(!String(decoding: writer.bytes, as: UTF8.self).contains("leapseconds"))
    }

    @Test("once learned, the cycle's last sentence ends the epoch at once")
    func learnedCycleEnd() throws {
        let decoder = NMEADecoder()
        let bytes = try fixture("sirf-cycle.nmea")
        var delivered: [(afterSentence: String, time: String)] = []
        var lastSentence = ""
        bytes.withUnsafeBytes { buffer in
            decoder.feed(buffer) { event in
                switch event {
                case .sentence(let raw): lastSentence = raw.address.text
                case .epoch(let epoch):
                    if let fix = epoch.fix { delivered.append((lastSentence, fix.time?.description ?? "")) }
                default: break
                }
            }
        }
        // Nothing is held back: all 20 epochs are out before the input ends.
        #expect(delivered.count == 20)
        // The first epoch ends when the second one starts; every later one at its own RMC.
        #expect(delivered.first?.afterSentence == "GPGGA")
        #expect(delivered.dropFirst().allSatisfy { $0.afterSentence == "GPRMC" })
    }

    @Test("several GSA per epoch (one per constellation) do not end the epoch early")
    func multiGSA() throws {
        let result = decode(try fixture("ublox-multi.nmea"))
        #expect(result.fixes.count == 10)
        for fix in result.fixes {
            #expect(fix.mode == .threeD)
            #expect(fix.quality == .dgps)
            #expect(fix.altitudeMSL == 10.25)
            #expect(fix.positioningMode == .differential)
            #expect(fix.navigationalStatus == .notValid)  // u-blox sends V: status not computed
        }
    }

    @Test("dilutions outside 0.01 to 89.99 are a receiver's 'none' (0.00, 99.00, 99.99), as gpsd takes them; the rest are kept")
    func placeholderDilutions() {
        func dilutions(gsa: String, gga hdop: String = "") -> (Double?, Double?, Double?) {
            var text = nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,1,05,\(hdop),10.2,M,47.0,M,,")
            text += nmea("GPGSA,A,3,05,13,15,18,23,,,,,,,,\(gsa)")
            text += nmea("GPGGA,120001.00,5200.0000,N,00400.0000,W,1,05,,10.2,M,47.0,M,,")
            let fix = decode(text).fixes.first
            return (fix?.pdop, fix?.hdop, fix?.vdop)
        }
        #expect(dilutions(gsa: "0.00,0.00,0.00") == (nil, nil, nil))
        #expect(dilutions(gsa: "99.99,99.99,99.99") == (nil, nil, nil))
        #expect(dilutions(gsa: "99.0,99.0,99.0", gga: "99.0") == (nil, nil, nil))
        #expect(dilutions(gsa: "60.000,2.5,0.01") == (60, 2.5, 0.01))
        // A placeholder in the GSA leaves the GGA's value standing.
        #expect(dilutions(gsa: "2.6,0.00,1.8", gga: "1.9") == (2.6, 1.9, 1.8))
    }

    @Test("differential age and station are taken together: both given and not both zero, as gpsd takes them")
    func differentialCorrections() {
        func corrections(_ fields: String) -> (Double?, Int?) {
            var text = nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,2,08,0.9,10.2,M,47.0,M,\(fields)")
            text += nmea("GPGGA,120001.00,5200.0000,N,00400.0000,W,2,08,0.9,10.2,M,47.0,M,,")
            let fix = decode(text).fixes.first
            return (fix?.differentialAge, fix?.differentialStation)
        }
        #expect(corrections("6.6,0133") == (6.6, 133))
        #expect(corrections("18.8,0000") == (18.8, 0))
        #expect(corrections(",0000") == (nil, nil), "a station alone: no corrections")
        #expect(corrections("0.0,0000") == (nil, nil), "both zero: no corrections")
        #expect(corrections("3.0,") == (nil, nil))
    }

    @Test("receivers that send no RMC: GGA alone gives fixes, with a time once a date is known")
    func noRMC() {
        var text = ""
        for second in 0..<3 { text += nmea("GPGGA,12000\(second).00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,") }
        text += nmea("GPZDA,120003.00,05,06,2024,00,00")
        text += nmea("GPGGA,120003.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
        let result = decode(text)
        #expect(result.fixes.count == 4)
        #expect(result.fixes[0].time == nil)
        #expect(result.fixes[0].timeOfDay == TimeOfDay(hour: 12, minute: 0, second: 0))
        #expect(result.fixes[0].mode == .threeD)
        #expect(result.fixes[3].time?.description == "2024-06-05T12:00:03.000Z")
    }

    @Test("receivers that send no GGA: RMC alone gives 2D fixes")
    func noGGA() {
        var text = ""
        for second in 0..<3 { text += nmea("GPRMC,12000\(second).00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A") }
        let result = decode(text)
        #expect(result.fixes.count == 3)
        #expect(result.fixes.allSatisfy { $0.mode == .twoD && $0.altitudeMSL == nil && $0.time != nil })
    }

    @Test("GSA's 2D beside a GGA with an altitude: the timed GGA decides, 3D (Tests/KNOWN-DIFFERENCES.md, GSA's dimension)")
    func gsaTwoDBesideAltitude() {
        // Garmin's order: RMC, GGA (an altitude), GSA saying 2D; the second cycle's GGA counts
        // three satellites.
        let text = nmea("GPRMC,120000,A,5207.4074,N,00419.2659,E,000.0,000.0,050624,001.2,W")
            + nmea("GPGGA,120000,5207.4074,N,00419.2659,E,1,05,1.8,10.2,M,47.0,M,,")
            + nmea("GPGSA,A,2,01,02,03,04,05,,,,,,,,2.2,1.8,1.2")
            + nmea("GPRMC,120001,A,5207.4074,N,00419.2659,E,000.0,000.0,050624,001.2,W")
            + nmea("GPGGA,120001,5207.4074,N,00419.2659,E,1,03,1.8,11.0,M,47.0,M,,")
            + nmea("GPGSA,A,2,01,02,03,,,,,,,,,,2.2,1.8,1.2")
        let result = decode(text)
        #expect(result.fixes.map(\.mode) == [.threeD, .threeD])
        #expect(result.fixes.map(\.altitudeMSL) == [10.2, 11.0])
    }

    /// One cycle of a moving receiver at `second` after 12:00:00: VTG and RMC say the same
    /// speed (1 + second knots) and course (10 × second degrees), as one solution's.
    private static func moving(_ second: Int, vtgFirst: Bool, rmc: Bool = true) -> String {
        let time = String(format: "1200%02d.00", second)
        let knots = String(format: "%05.1f", Double(1 + second)), course = String(format: "%05.1f", Double(10 * second))
        let vtg = nmea("GPVTG,\(course),T,\(String(format: "%05.1f", Double(10 * second) - 1.5)),M,\(knots),N,,K,A")
        let cycle = (rmc ? nmea("GPRMC,\(time),A,5207.4074,N,00419.2659,E,\(knots),\(course),050624,,,A") : "")
            + nmea("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
        return vtgFirst ? vtg + cycle : cycle + vtg
    }

    @Test("a receiver that sends its VTG before its cycle's RMC: each epoch's speed and course are its own, not the next cycle's")
    func vtgBeforeRMC() {
        let leading = decode((0..<6).map { Self.moving($0, vtgFirst: true) }.joined())
        #expect(leading.fixes.count == 6)
        for (second, fix) in leading.fixes.enumerated() {
            #expect(fix.speed.map { abs($0 - Double(1 + second) * 1852 / 3600) < 1e-9 } == true, "epoch \(second): \(fix.speed as Any)")
            #expect(fix.track == Double(10 * second), "epoch \(second)")
            // VTG's magnetic course only where its true course is the epoch's.
            #expect(fix.magneticTrack == nil || fix.magneticTrack == Double(10 * second) - 1.5, "epoch \(second)")
        }
        // After it, as most receivers send it: the same, and VTG's magnetic course.
        let trailing = decode((0..<6).map { Self.moving($0, vtgFirst: false) }.joined())
        #expect(trailing.fixes.map(\.track) == (0..<6).map { Double(10 * $0) })
        #expect(trailing.fixes.map(\.magneticTrack) == (0..<6).map { Double(10 * $0) - 1.5 })
        // With no RMC, VTG gives the motion.
        let vtgOnly = decode((0..<4).map { Self.moving($0, vtgFirst: false, rmc: false) }.joined())
        #expect(vtgOnly.fixes.map(\.track) == (0..<4).map { Double(10 * $0) })
    }

    /// A 1 Hz cycle at second `second` after 12:00:00: GGA and RMC stamped `fraction`.
    private static func positions(_ second: Int, fraction: String = "00") -> String {
        let time = String(format: "1200%02d.%@", second, fraction)
        return nmea("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            + nmea("GPRMC,\(time),A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
    }

    private static func zda(_ second: Int, fraction: String = "00") -> String {
        nmea(String(format: "GPZDA,1200%02d.%@,05,06,2024,00,00", second, fraction))
    }

    @Test("a ZDA stamped tens of milliseconds after its cycle's positions makes no epoch of its own")
    func zdaStampedAfter() {
        let text = (0..<5).map { Self.positions($0) + Self.zda($0, fraction: "05") }.joined()
        let result = decode(text)
        #expect(result.fixes.map { $0.timeOfDay?.second } == [0, 1, 2, 3, 4])
        #expect(result.fixes.allSatisfy { $0.mode == .threeD && $0.time != nil })
    }

    @Test("a ZDA a second before positions stamped .379 makes no epoch of its own")
    func zdaSecondBefore() {
        let text = (1..<6).map { Self.zda($0 - 1) + Self.positions($0, fraction: "379") }.joined()
        let result = decode(text)
        #expect(result.fixes.map { $0.timeOfDay?.second } == [1, 2, 3, 4, 5])
        #expect(result.fixes.allSatisfy { $0.mode == .threeD && $0.timeOfDay?.nanosecond == 379_000_000 })
    }

    @Test("a ZDA that opens its cycle with the positions' time still opens it, the GSA after it inside")
    func zdaOpensCycle() {
        let gsa2D = nmea("GPGSA,A,2,01,02,03,,,,,,,,,,1.8,0.9,1.5")
        let text = Self.zda(0) + gsa2D + nmea("GPRMC,120000.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
            + Self.zda(1) + nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.8,0.9,1.5")
            + nmea("GPRMC,120001.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
            // Every other second without a ZDA.
            + nmea("GPRMC,120002.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
            + Self.zda(3) + nmea("GPRMC,120003.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
        let result = decode(text)
        #expect(result.fixes.map { $0.timeOfDay?.second } == [0, 1, 2, 3])
        #expect(result.fixes.map(\.mode) == [.twoD, .threeD, .threeD, .threeD])
    }

    @Test("a receiver that sends only ZDA: an epoch a second, each with its time")
    func zdaOnly() {
        let text = (0..<4).map { Self.zda($0) }.joined()
        let result = decode(text)
        #expect(result.epochs.compactMap { $0.fix?.timeOfDay?.second } == [0, 1, 2, 3])
    }

    @Test("satellites used: GGA's count when it gives one, else the epoch's GSA sentences, else none")
    func satellitesUsed() {
        // RMC and two GSA (GPS, GLONASS) with five satellites between them, then an epoch
        // with no GSA (the last epoch's count does not carry over), then GGA with its own count.
        let text = nmea("GPRMC,120000.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
            + nmea("GNGSA,A,3,05,13,15,,,,,,,,,,1.8,1.1,1.5,1") + nmea("GNGSA,A,3,70,71,,,,,,,,,,,1.8,1.1,1.5,2")
            + nmea("GPRMC,120001.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
            + nmea("GPRMC,120002.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
            + nmea("GPGGA,120002.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            + nmea("GNGSA,A,3,05,13,15,,,,,,,,,,1.8,1.1,1.5,1")
        let result = decode(text)
        #expect(result.fixes.map(\.satellitesUsed) == [5, nil, 8])
    }

    @Test("cycles without a time after a timed start still make a fix each (a receiver that lost its clock)")
    func clockLostAfterTimedStart() {
        var text = nmea("GPRMC,105459.408,A,5050.4126,N,00420.8228,E,0.00,0.0,120319,,,A") + nmea("GPVTG,0.0,T,,M,0.00,N,0.01,K,A")
        let untimed = ["GPGGA,,,,,,0,,,,M,,M,,", "GPGLL,,,,,,V,N", "GPGSA,A,1,,,,,,,,,,,,,,,", "GPGSV,1,1,00,,,,,,,,,,,,,,,,",
                       "GPRMC,,V,,,,,,,,,,N", "GPVTG,,T,,M,,N,,K,N"]
        for _ in 0..<10 { text += untimed.map { nmea($0) }.joined() }
        let result = decode(text)
        #expect(result.fixes.count == 11)
        #expect(result.fixes.first?.mode == .twoD && result.fixes.first?.time != nil)
        #expect(result.fixes.dropFirst().allSatisfy { $0.mode == .noFix && $0.timeOfDay == nil })
    }

    @Test("an invalid RMC gives no position, however many digits it carries")
    func invalidRMC() {
        let result = decode(nmea("GPRMC,120000.00,V,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,N"))
        #expect(result.fixes.count == 1)
        #expect(result.fixes[0].mode == .noFix)
        #expect(result.fixes[0].latitude == nil)
        #expect(result.fixes[0].speed == nil)
    }

    @Test("GGA quality 0 is no fix; quality 1 with a count of 00 satellites is a fix all the same")
    func noFixGGA() {
        let result = decode(nmea("GPGGA,120000.00,5207.4074,N,00419.2659,E,1,00,0.9,10.2,M,47.0,M,,") + nmea("GPGGA,120001.00,,,,,0,,,,M,,M,,"))
        #expect(result.fixes.map(\.mode) == [.threeD, .noFix])
        #expect(result.fixes[0].latitude != nil && result.fixes[0].satellitesUsed == 0)
    }

    @Test("GSV groups assemble into views with used flags from GSA")
    func satelliteViews() throws {
        let result = decode(try fixture("ublox-multi.nmea"))
        let first = Array(result.views.prefix(4))
        #expect(first.map(\.talker) == [.gps, .glonass, .galileo, .beidou])
        #expect(first.map(\.signalID) == [1, 1, 7, 0xB])
        let gps = first[0]
        #expect(gps.satellites.count == 6 && gps.satellitesInView == 6)
        #expect(gps.satellites.map(\.used) == [true, true, true, true, true, false])
        #expect(first[1].satellites.map { $0.id?.svid } == [6, 7, 16])
        #expect(first[1].satellites.allSatisfy { $0.used })
        #expect(first[2].satellites.map(\.used) == [true, true, false])
        #expect(first[3].satellites.map { $0.id?.gpsdPRN } == [411, 412])
    }

    @Test("a satellite's unknown values read back nil, however they were set, and equal each other")
    func satelliteUnknownValues() {
        let gps5 = SatelliteID(constellation: .gps, svid: 5)
        var satellite = Satellite(id: gps5, nmeaID: 5, elevation: 45, azimuth: nil, snr: 40)
        #expect(satellite.elevation == 45 && satellite.azimuth == nil && satellite.snr == 40)
        satellite.snr = nil
        satellite.azimuth = 120.5
        #expect(satellite.snr == nil && satellite.azimuth == 120.5)
        let same = Satellite(id: gps5, nmeaID: 5, elevation: 45, azimuth: 120.5)
        #expect(satellite == same && satellite.hashValue == same.hashValue)
        satellite.used = true
        #expect(satellite != same)
        // A GSV part's empty fields become nil in the view built from it.
        let result = decode("$GPGSV,1,1,02,05,,120,40,13,30,,*48\r\n")
        #expect(result.views.first?.satellites == [
            Satellite(id: gps5, nmeaID: 5, azimuth: 120, snr: 40),
            Satellite(id: SatelliteID(constellation: .gps, svid: 13), nmeaID: 13, elevation: 30),
        ])
    }

    @Test("views kept by their receiver stay intact; views let go of are built in the last epoch's buffers")
    func viewStorageReuse() throws {
        let bytes = try fixture("ublox-multi.nmea")
        // Kept: every view equals what a fresh decoder gives for it, after all were decoded.
        let kept = decode(bytes)
        #expect(kept.views.count > 8)
        let again = decode(bytes)
        #expect(kept.views == again.views)
        #expect(Set(kept.views.map { $0.satellites.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }).count
            == kept.views.count)
        // Once views are seen to be kept, a new one has room for its own satellites, not for the
        // largest common group (the first epoch's, made before anything was kept, have that).
        let afterTheFirst = kept.views.dropFirst(8).filter { $0.satellites.count <= 16 }
        #expect(!afterTheFirst.isEmpty && afterTheFirst.allSatisfy { $0.satellites.capacity < 32 })
        // Let go of: the next epoch's views reuse the storage, so no allocation per view.
        let decoder = NMEADecoder()
        var addresses: [Int] = []
        var satellites: [[Int]] = []
        var mostInAnEpoch = 0
        bytes.withUnsafeBytes { buffer in
            decoder.feed(buffer) { event in
                guard let epoch = event.epoch else { return }
                mostInAnEpoch = max(mostInAnEpoch, epoch.views.count)
                for view in epoch.views {
                    addresses.append(view.satellites.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
                    satellites.append(view.satellites.map(\.nmeaID))
                }
            }
        }
        #expect(addresses.count > 2 * mostInAnEpoch)
        #expect(Set(addresses).count <= mostInAnEpoch)
        #expect(satellites == kept.views.map { $0.satellites.map(\.nmeaID) })
    }

    @Test("GSV parts out of order still assemble; a missing part drops the group")
    func gsvOrder() {
        let parts = [
            nmea("GPGSV,3,2,09,13,21,278,,15,06,246,,24,10,100,,29,05,100,"),
            nmea("GPGSV,3,1,09,03,03,074,37,06,15,348,38,07,18,022,52,11,13,133,35"),
            nmea("GPGSV,3,3,09,30,47,008,54"),
        ]
        let ordered = decode(parts.joined())
        #expect(ordered.views.count == 1)
        #expect(ordered.views.first?.satellites.map(\.nmeaID) == [3, 6, 7, 11, 13, 15, 24, 29, 30])

        let missing = decode(parts[1] + parts[2] + parts[1] + parts[0] + parts[2])
        #expect(missing.views.count == 1)
        #expect(missing.rejects.map(\.reason) == [.incompleteSatelliteView])
    }

    @Test("more than 58 satellites in view: a 16-part group")
    func manySatellites() {
        var text = ""
        for part in 1...16 {
            var body = "GPGSV,16,\(part),64"
            for index in 0..<4 { body += ",\(((part - 1) * 4 + index) % 32 + 1),10,100,30" }
            text += nmea(body)
        }
        let result = decode(text)
        #expect(result.views.count == 1)
        #expect(result.views.first?.satellites.count == 64)
        #expect(result.views.first?.satellitesInView == 64)
    }

    @Test("a sentence with the ended epoch's time revises it and unlearns the end")
    func revisedEpoch() {
        var text = ""
        for second in 0..<3 {
            text += nmea("GPGGA,12000\(second).00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            text += nmea("GPRMC,12000\(second).00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
        }
        // Now the receiver adds a GST after RMC for the same time.
        text += nmea("GPGGA,120003.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
        text += nmea("GPRMC,120003.00,A,5207.4074,N,00419.2659,E,1.0,90.0,050624,,,A")
        text += nmea("GPGST,120003.00,0.006,0.023,0.020,273.6,0.023,0.020,0.031")
        text += nmea("GPGGA,120004.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
        let result = decode(text)
        let times = result.fixes.map { $0.time!.timeOfDay.second }
        #expect(times == [0, 1, 2, 3, 3, 4])
        #expect(result.fixes[3].errors == nil)
        #expect(result.fixes[4].errors?.altitude == 0.031)
    }

    @Test("dates roll over at midnight for sentences that carry only a time")
    func midnight() {
        var text = nmea("GPRMC,235959.00,A,5207.4074,N,00419.2659,E,0.0,,311224,,,A")
        text += nmea("GPGGA,000000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
        text += nmea("GPGGA,000001.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
        let result = decode(text)
        #expect(result.fixes.map { $0.time?.description } == [
            "2024-12-31T23:59:59.000Z", "2025-01-01T00:00:00.000Z", "2025-01-01T00:00:01.000Z",
        ])
    }

    @Test("year rules: yy < 80 is 20yy, else 19yy; ZDA sets the century")
    func years() {
        #expect(decode(nmea("GPRMC,120000.00,A,5207.4,N,00419.2,E,0.0,,050679,,,A")).fixes.first?.time?.date.year == 2079)
        #expect(decode(nmea("GPRMC,120000.00,A,5207.4,N,00419.2,E,0.0,,050699,,,A")).fixes.first?.time?.date.year == 1999)
        let zda = nmea("GPZDA,115959.00,05,06,2199,00,00") + nmea("GPRMC,120000.00,A,5207.4,N,00419.2,E,0.0,,050699,,,A")
        #expect(decode(zda).fixes.last?.time?.date.year == 2199)
    }

    @Test("a leap second keeps second 60")
    func leapSecondFix() {
        let text = nmea("GPRMC,235960.00,A,5207.4,N,00419.2,E,0.0,,311216,,,A") + nmea("GPRMC,000000.00,A,5207.4,N,00419.2,E,0.0,,010117,,,A")
        let result = decode(text)
        #expect(result.fixes.map { $0.time?.description } == ["2016-12-31T23:59:60.000Z", "2017-01-01T00:00:00.000Z"])
    }

    @Test("GPS week rollover: dates before the pivot move forward by 1024 weeks")
    func weekRollover() {
        let text = nmea("GPRMC,120000.00,A,5207.4,N,00419.2,E,0.0,,210999,,,A")
        #expect(decode(text).fixes.first?.time?.date.description == "1999-09-21")
        let pivot = CalendarDate(year: 2019, month: 4, day: 7)
        let corrected = decode(text, dates: .init(rolloverPivot: pivot))
        #expect(corrected.fixes.first?.time?.date.description == "2019-05-07")
    }

    @Test("speed is derived from successive positions when no sentence gives it")
    func derivedSpeed() {
        var text = nmea("GPZDA,120000.00,05,06,2024,00,00")
        text += nmea("GPGGA,120000.00,5200.0000,N,00400.0000,E,1,08,0.9,10.2,M,47.0,M,,")
        text += nmea("GPGGA,120001.00,5200.0060,N,00400.0000,E,1,08,0.9,10.2,M,47.0,M,,")
        let result = decode(text)
        #expect(result.fixes.first?.speed == nil)
        #expect(abs(result.fixes[1].speed! - 0.006 * 1852) < 0.02)
    }
}
