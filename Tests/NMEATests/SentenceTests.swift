import Testing
@testable import NMEA
import TestSupport

@Suite("Sentences", .mayBlock)
struct SentenceTests {
    @Test("GGA")
    func gga() throws {
        guard case .gga(let s)? = try sentence("GPGGA,092750.000,5321.6802,N,00630.3372,W,4,08,1.03,61.7,M,55.2,M,1.5,0123") else {
            Issue.record("no GGA"); return
        }
        #expect(s.talker == .gps)
        #expect(s.time == TimeOfDay(hour: 9, minute: 27, second: 50))
        #expect(abs(s.latitude! - 53.36133667) < 1e-8)
        #expect(abs(s.longitude! + 6.50562) < 1e-8)
        #expect(s.quality == .rtkFixed)
        #expect(s.satellitesUsed == 8)
        #expect(s.hdop == 1.03)
        #expect(s.altitudeMSL == 61.7)
        #expect(s.geoidSeparation == 55.2)
        #expect(s.differentialAge == 1.5)
        #expect(s.differentialStation == 123)
    }

    @Test("GGA with every field empty decodes to nils")
    func ggaEmpty() throws {
        guard case .gga(let s)? = try sentence("GPGGA,,,,,,0,,,,M,,M,,") else { Issue.record("no GGA"); return }
        #expect(s.time == nil && s.latitude == nil && s.longitude == nil && s.altitudeMSL == nil)
        #expect(s.quality == .invalid)
    }

    @Test("GGA with an unknown quality is rejected")
    func ggaBadQuality() {
        let result = decode(nmea("GPGGA,092750.000,5321.6802,N,00630.3372,W,9,08,1.03,61.7,M,55.2,M,,"))
        #expect(result.rejects.first?.fieldIndex == 6)
    }

    @Test("RMC with NMEA 4.10 mode and navigational status")
    func rmc() throws {
        guard case .rmc(let s)? = try sentence("GNRMC,001031.00,A,4404.13993,N,12118.86023,W,0.146,12.5,100117,3.1,E,D,S") else {
            Issue.record("no RMC"); return
        }
        #expect(s.isValid == true)
        #expect(abs(s.speed! - 0.146 * 1852 / 3600) < 1e-12)
        #expect(s.course == 12.5)
        #expect(s.date == TwoDigitDate(day: 10, month: 1, yearInCentury: 17))
        #expect(s.magneticVariation == 3.1)
        #expect(s.mode == .differential)
        #expect(s.navigationalStatus == .safe)
    }

    @Test("RMC with a western magnetic variation is negative")
    func rmcVariation() throws {
        guard case .rmc(let s)? = try sentence("GPRMC,001031.00,V,,,,,,,100117,3.1,W,N") else { Issue.record("no RMC"); return }
        #expect(s.isValid == false)
        #expect(s.magneticVariation == -3.1)
        #expect(s.mode == .notValid)
        #expect(s.latitude == nil)
    }

    @Test("RMC with a day that does not exist is rejected")
    func rmcBadDate() {
        #expect(decode(nmea("GPRMC,001031.00,A,4404.1,N,12118.8,W,0.1,,321317,,,A")).rejects.first?.fieldIndex == 9)
    }

    @Test("GSA with an NMEA 4.10 system ID")
    func gsa() throws {
        guard case .gsa(let s)? = try sentence("GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2") else { Issue.record("no GSA"); return }
        #expect(s.selectionMode == UInt8(ascii: "A"))
        #expect(s.fixType == 3)
        #expect(Array(s.satellites) == [80, 71, 73, 79, 69])
        #expect(s.pdop == 1.83 && s.hdop == 1.09 && s.vdop == 1.47)
        #expect(s.systemID == 2)
    }

    @Test("GSA without system ID, and with more than twelve satellites")
    func gsaVariants() throws {
        guard case .gsa(let old)? = try sentence("GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5") else { Issue.record("no GSA"); return }
        #expect(old.systemID == nil)
        #expect(old.satellites.count == 8)
        guard case .gsa(let long)? = try sentence("GNGSA,A,3,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1.0,0.8,0.6") else { Issue.record("no GSA"); return }
        #expect(long.satellites.count == 16)
        #expect(long.vdop == 0.6)
    }

    @Test("GSV with a hexadecimal signal ID (BeiDou B)")
    func gsvHexSignal() throws {
        guard case .gsv(let s)? = try sentence("GBGSV,1,1,02,11,50,100,41,12,25,210,36,B") else { Issue.record("no GSV"); return }
        #expect(s.talker == .beidou)
        #expect(s.signalID == 0xB)
        #expect(s.satellites.count == 2)
        #expect(s.satellites[1] == GSVSatellite(id: 12, elevation: 25, azimuth: 210, snr: 36))
    }

    @Test("GSV without a checksum, its last field at the very end, reads the same", arguments: ["", "4", "41"])
    func gsvWithoutChecksum(lastSNR: String) {
        let body = "GPGSV,1,1,02,11,50,100,41,12,25,210,\(lastSNR)"
        let framer = NMEAFramer.Configuration(acceptsMissingChecksum: true)
        let bare = decode("$\(body)\r\n", framer: framer).decoded
        let checked = decode(nmea(body)).decoded
        #expect(bare.count == 1 && bare == checked, "\(bare)")
    }

    @Test("GSV with more than 58 satellites in view (two-digit part count)")
    func gsvManySatellites() throws {
        guard case .gsv(let s)? = try sentence("GPGSV,16,12,63,45,10,100,30,46,11,101,31,47,12,102,32,48,13,103,") else { Issue.record("no GSV"); return }
        #expect(s.messageCount == 16 && s.messageNumber == 12 && s.satellitesInView == 63)
        #expect(s.satellites[3].snr == nil)
    }

    @Test("GSV with a part number past the count is rejected")
    func gsvBadPart() {
        #expect(decode(nmea("GPGSV,3,4,12,17,72,207,32")).rejects.first?.fieldIndex == 2)
    }

    @Test("talkers GQ, QZ, GI, BD are decoded like the others", arguments: ["GQ", "QZ", "GI", "BD", "GA", "GL", "GN", "GB"])
    func talkers(talker: String) throws {
        guard case .gsv(let s)? = try sentence("\(talker)GSV,1,1,01,02,40,120,35") else { Issue.record("no GSV"); return }
        #expect(s.talker == Talker(talker))
    }

    @Test("VTG with unit letters, and the old form without")
    func vtg() throws {
        guard case .vtg(let s)? = try sentence("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A") else { Issue.record("no VTG"); return }
        #expect(s.courseTrue == 54.7 && s.courseMagnetic == 34.4)
        #expect(abs(s.speed! - 5.5 * 1852 / 3600) < 1e-12)
        #expect(s.mode == .autonomous)
        guard case .vtg(let old)? = try sentence("GPVTG,054.7,034.4,005.5,010.2") else { Issue.record("no VTG"); return }
        #expect(old.courseTrue == 54.7)
        #expect(abs(old.speed! - 5.5 * 1852 / 3600) < 1e-12)
    }

    @Test("GLL")
    func gll() throws {
        guard case .gll(let s)? = try sentence("GPGLL,4916.45,N,12311.12,W,225444,A,A") else { Issue.record("no GLL"); return }
        #expect(abs(s.latitude! - 49.274166667) < 1e-8)
        #expect(s.time == TimeOfDay(hour: 22, minute: 54, second: 44))
        #expect(s.isValid == true && s.mode == .autonomous)
    }

    @Test("ZDA")
    func zda() throws {
        guard case .zda(let s)? = try sentence("GPZDA,201530.00,04,07,2002,-05,00") else { Issue.record("no ZDA"); return }
        #expect(s.date == CalendarDate(year: 2002, month: 7, day: 4))
        #expect(s.localZoneHours == -5 && s.localZoneMinutes == 0)
    }

    @Test("GST")
    func gst() throws {
        guard case .gst(let s)? = try sentence("GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031") else { Issue.record("no GST"); return }
        #expect(s.rangeRMS == 0.006 && s.orientation == 273.6)
        #expect(s.latitudeDeviation == 0.023 && s.longitudeDeviation == 0.020 && s.altitudeDeviation == 0.031)
    }

    @Test("GNS with a mode per constellation")
    func gns() throws {
        guard case .gns(let s)? = try sentence("GNGNS,014035.00,4332.69262,S,17235.48549,E,RR,13,0.9,25.63,11.24,,,S") else { Issue.record("no GNS"); return }
        #expect(s.modes == [.rtkFixed, .rtkFixed])
        #expect(s.bestMode == .rtkFixed)
        #expect(s.satellitesUsed == 13 && s.altitudeMSL == 25.63 && s.geoidSeparation == 11.24)
        #expect(s.navigationalStatus == .safe)
    }

    @Test("GBS")
    func gbs() throws {
        guard case .gbs(let s)? = try sentence("GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0") else { Issue.record("no GBS"); return }
        #expect(s.latitudeError == 1.4 && s.failedSatellite == 3 && s.bias == -21.4 && s.systemID == 1 && s.signalID == 0)
    }

    @Test("DTM")
    func dtm() throws {
        guard case .dtm(let s)? = try sentence("GPDTM,W84,,0.0,N,0.0,E,0.0,W84") else { Issue.record("no DTM"); return }
        #expect(s.localDatum == "W84" && s.referenceDatum == "W84" && s.latitudeOffset == 0 && s.subdivision == nil)
    }

    @Test("TXT keeps commas and decodes ^hh escapes")
    func txt() throws {
        guard case .txt(let s)? = try sentence("GPTXT,01,01,02,ANTENNA OK^2C FW 1.00,x") else { Issue.record("no TXT"); return }
        #expect(s.text == "ANTENNA OK, FW 1.00,x")
        #expect(s.identifier == 2)
    }

    @Test("HDT")
    func hdt() throws {
        guard case .hdt(let s)? = try sentence("HEHDT,274.07,T") else { Issue.record("no HDT"); return }
        #expect(s.heading == 274.07)
    }

    @Test("Garmin PGRMZ altitude in feet")
    func pgrmz() throws {
        guard case .pgrmz(let s)? = try sentence("PGRMZ,161,f,3") else { Issue.record("no PGRMZ"); return }
        #expect(abs(s.altitude! - 49.0728) < 1e-9)
        #expect(s.dimension == 3)
    }

    @Test("Garmin PGRMF: GPS week and seconds, date and time, leap seconds, position, fix type, km/h, course, dilutions; a bad field costs that field")
    func pgrmf() throws {
        guard case .pgrmf(let s)? = try sentence("PGRMF,290,293895,160305,093802,13,5213.1439,N,02100.6511,E,A,2,36,226,2,1")
        else { Issue.record("no PGRMF"); return }
        #expect(s.gpsWeek == 290 && s.gpsSecondsOfWeek == 293895)
        #expect(s.date == TwoDigitDate(day: 16, month: 3, yearInCentury: 5))
        #expect(s.time?.description == "09:38:02.000")
        #expect(s.leapSeconds == 13)
        #expect(abs(s.latitude! - 52.219065) < 1e-9 && abs(s.longitude! - 21.010851667) < 1e-8)
        #expect(s.fixType == 2)
        #expect(abs(s.speed! - 10) < 1e-12, "36 km/h")
        #expect(s.course == 226 && s.pdop == 2 && s.tdop == 1)

        let result = decode(nmea("PGRMF,290,293895,160305,093802,1x3,5213.1439,N,02100.6511,E,A,2,0,226,2,1"))
        guard case .pgrmf(let partial)? = result.decoded.first else { Issue.record("a bad field cost the sentence"); return }
        #expect(partial.leapSeconds == nil && partial.time != nil && partial.latitude != nil)
        #expect(result.rejects.map(\.fieldIndex) == [5])
    }

    @Test("Garmin PGRME: horizontal, vertical and spherical estimates in metres; another unit costs its estimate")
    func pgrme() throws {
        guard case .pgrme(let s)? = try sentence("PGRME,1.7,M,2.4,M,3.0,M") else { Issue.record("no PGRME"); return }
        #expect(s.horizontal == 1.7 && s.vertical == 2.4 && s.spherical == 3.0)
        let result = decode(nmea("PGRME,1.7,M,2.4,f,3.0,M"))
        guard case .pgrme(let partial)? = result.decoded.first else { Issue.record("a bad unit cost the sentence"); return }
        #expect(partial.horizontal == 1.7 && partial.vertical == nil && partial.spherical == 3.0)
        #expect(result.rejects.map(\.fieldIndex) == [4])
    }

    @Test("proprietary and unknown sentences are delivered raw, not dropped")
    func passThrough() {
        let text = nmea("PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0") + nmea("SDDBT,8.1,f,2.4,M,1.3,F")
        let result = decode(text)
        #expect(result.sentences.count == 2)
        #expect(result.decoded.isEmpty)
        #expect(result.rejects.isEmpty)
        #expect(result.statistics.rejects[.unknownSentenceType] == 2)
        #expect(result.statistics.sentences["PUBX"] == 1)
        #expect(result.statistics.sentences["SDDBT"] == 1)
    }

    @Test("a raw sentence gives its fields")
    func rawFields() {
        let framer = NMEAFramer()
        var fields: [String] = []
        let text = nmea("PGRME,15.0,M,45.0,M,25.0,M")
        Array(text.utf8).withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                if case .sentence(let raw) = event { fields = (0..<raw.fieldCount).map { raw[$0].text } }
            }
        }
        #expect(fields == ["PGRME", "15.0", "M", "45.0", "M", "25.0", "M"])
    }
}
