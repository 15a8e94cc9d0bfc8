import Testing
@testable import NMEA
import NMEARendering
import TestSupport

@Suite("gpsd JSON", .mayBlock)
struct RenderingTests {
    @Test("TPV has gpsd's names, units and precision")
    func tpv() throws {
        let fix = try #require(decode(try fixture("sirf-cycle.nmea")).fixes.first)
        #expect(GPSDJSON.tpv(fix) == #"{"class":"TPV","mode":3,"time":"2014-12-31T03:07:19.000Z","ept":0.005,"lat":-37.784788333,"lon":175.314896667,"altHAE":83.600,"altMSL":59.900,"alt":59.900,"epx":9.484,"epy":12.791,"epv":34.500,"geoidSep":23.700,"speed":5.000,"track":45.0000,"eph":20.900,"sep":34.200}"#)
    }

    // The error estimates: eph 1.1 × 19, epv 1.5 × 23, sep 1.8 × 19 (the receiver's dilutions
    // times gpsd's UERE), epx and epy from the geometry of the satellites used.
    @Test("TPV with status, climb and GST errors")
    func tpvExtras() {
        var text = nmea("GPZDA,120000.00,05,06,2024,00,00")
        text += nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,4,08,0.9,10.2,M,47.0,M,,")
        text += nmea("GPGGA,120001.00,5200.0000,N,00400.0000,W,4,08,0.9,10.7,M,47.0,M,,")
        text += nmea("GPGST,120001.00,0.006,0.023,0.020,273.6,0.03,0.04,0.031")
        let fixes = decode(text).fixes
        // The GST comes after the learned end of the cycle: the epoch is delivered again, revised.
        #expect(fixes.count == 3)
        #expect(GPSDJSON.tpv(fixes[2]) == #"{"class":"TPV","mode":3,"status":3,"time":"2024-06-05T12:00:01.000Z","ept":0.005,"lat":52.000000000,"lon":-4.000000000,"altHAE":57.700,"altMSL":10.700,"alt":10.700,"epx":0.040,"epy":0.030,"epv":0.031,"geoidSep":47.000,"speed":0.000,"climb":0.500,"eph":0.050}"#)
    }

    @Test("an epoch with GST and HDT: its GST (gpsd's noise statistics) and ATT (the heading) follow its TPV")
    func gstAndAttitude() throws {
        var text = nmea("GPZDA,120000.00,05,06,2024,00,00")
        text += nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,4,08,0.9,10.2,M,47.0,M,,")
        text += nmea("GPGST,120000.00,0.006,0.023,0.020,273.6,0.03,0.04,0.031")
        text += nmea("GPHDT,274.07,T")
        let epoch = try #require(decode(text).epochs.last)
        var writer = JSONWriter()
        var reports: [(GPSDJSON.ReportClass, String)] = []
        GPSDJSON.write(epoch, device: "/dev/ttyACM0", reusing: &writer) { reportClass, report in
            reports.append((reportClass, String(decoding: report.bytes, as: UTF8.self)))
        }
        // The SKY of the GGA's dilution and count first.
        #expect(reports.map(\.0) == [.sky, .tpv, .gst, .att])
        #expect(reports[2].1 == #"{"class":"GST","device":"/dev/ttyACM0","time":"2024-06-05T12:00:00.000Z","rms":0.006,"major":0.023,"minor":0.020,"orient":273.600,"lat":0.030,"lon":0.040,"alt":0.031}"#)
        #expect(reports[3].1 == #"{"class":"ATT","device":"/dev/ttyACM0","time":"2024-06-05T12:00:00.000Z","heading":274.070}"#)
        // GBS's deviations alone: in the TPV, no GST.
        var gbs = nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,1,08,0.9,10.2,M,47.0,M,,")
        gbs += nmea("GPGBS,120000.00,2.5,1.5,4.0,,,,")
        let fix = try #require(decode(gbs).fixes.last)
        #expect(!GPSDJSON.writeGST(fix, to: &writer))
    }

    @Test("TPV with the differential corrections' age and station, as gpsd names them")
    func tpvDifferential() {
        var text = nmea("GNGGA,132819.60,4134.49795459,N,09345.03431408,W,2,10,0.9,278.161,M,-31.442,M,6.6,0133")
        text += nmea("GNGGA,132819.70,4134.49795443,N,09345.03431421,W,2,10,0.9,278.161,M,-31.442,M,6.6,0133")
        let fix = decode(text).fixes[0]
        #expect(GPSDJSON.tpv(fix).hasSuffix(#","dgpsAge":6.6,"dgpsSta":133}"#), "\(GPSDJSON.tpv(fix))")
    }

    @Test("a fix with nothing known has only its class and mode")
    func emptyTPV() {
        #expect(GPSDJSON.tpv(Fix()) == #"{"class":"TPV","mode":0}"#)
    }

    @Test("SKY lists satellites with gpsd's numbering")
    func sky() throws {
        let view = try #require(decode(try fixture("ublox-multi.nmea")).views.dropFirst().first)
        #expect(GPSDJSON.sky(view) == #"{"class":"SKY","time":"2024-06-05T12:30:00.000Z","nSat":3,"uSat":3,"satellites":[{"PRN":70,"gnssid":6,"svid":6,"el":40.0,"az":150.0,"ss":36.0,"used":true},{"PRN":71,"gnssid":6,"svid":7,"el":55.0,"az":250.0,"ss":39.0,"used":true},{"PRN":80,"gnssid":6,"svid":16,"el":12.0,"az":330.0,"ss":28.0,"used":true}]}"#)
    }

    @Test("sigid in gpsd's numbering (u-blox's, not NMEA's), left out when 0 as gpsd does")
    func signalIDs() {
        func sigid(_ talker: Talker, signal: Int, satellite nmeaID: Int) -> String {
            let satellite = Satellite(id: SatelliteID(nmeaID: nmeaID, constellation: talker.constellation), nmeaID: nmeaID)
            let line = GPSDJSON.sky(SatelliteView(talker: talker, signalID: signal, satellites: [satellite]))
            return line.firstMatch(of: /"sigid":(\d+)/).map { String($0.1) } ?? "none"
        }
        #expect(sigid(.gps, signal: 1, satellite: 5) == "none", "L1 C/A: 0")
        #expect(sigid(.gps, signal: 6, satellite: 5) == "3", "L2 CL")
        #expect(sigid(.gps, signal: 8, satellite: 5) == "7", "L5 Q")
        #expect(sigid(.gps, signal: 2, satellite: 5) == "none", "L1 P(Y): no u-blox number")
        #expect(sigid(.gps, signal: 1, satellite: 46) == "none", "an SBAS satellite in a GPS group: L1 C/A")
        #expect(sigid(.glonass, signal: 3, satellite: 70) == "2", "L2 OF")
        #expect(sigid(.galileo, signal: 1, satellite: 5) == "3", "E5 aI")
        #expect(sigid(.galileo, signal: 2, satellite: 5) == "5", "E5 bI")
        #expect(sigid(.galileo, signal: 7, satellite: 5) == "none", "E1 B/C: E1 C, 0")
        #expect(sigid(.beidou, signal: 0xB, satellite: 5) == "2", "B2I D1")
        #expect(sigid(.beidou, signal: 5, satellite: 5) == "7", "B2a")
        #expect(sigid(.qzss, signal: 7, satellite: 1) == "8", "L5 I")
    }

    @Test("an epoch with no GSV: a SKY with its dilutions and satellites used, no nSat and no satellites, as gpsd sends it")
    func skyWithoutViews() throws {
        var text = nmea("GPZDA,120000.00,05,06,2024,00,00")
        text += nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,1,05,1.9,10.2,M,47.0,M,,")
        text += nmea("GPGSA,A,3,05,13,15,18,23,,,,,,,,2.6,1.9,1.8")
        text += nmea("GPGGA,120001.00,5200.0000,N,00400.0000,W,1,05,1.9,10.2,M,47.0,M,,")
        var skies = SkyAssembler()
        let fix = decode(text).fixes[0]
        let sky = skies.finish(with: fix)
        var writer = JSONWriter()
        GPSDJSON.writeSKY(try #require(sky), device: "/dev/ttyACM0", to: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"class":"SKY","device":"/dev/ttyACM0","time":"2024-06-05T12:00:00.000Z","vdop":1.80,"hdop":1.90,"pdop":2.60,"uSat":5}"#)
    }

    @Test("a sky with views carries its epoch's dilutions")
    func skyWithDilutions() throws {
        let decoded = decode(try fixture("ublox-multi.nmea"))
        var skies = SkyAssembler()
        for view in decoded.views.prefix(while: { $0.time == decoded.fixes[0].time }) { _ = skies.add(view) }
        let finished = skies.finish(with: decoded.fixes[0])
        let sky = try #require(finished)
        var writer = JSONWriter()
        GPSDJSON.writeSKY(sky, to: &writer)
        let line = String(decoding: writer.bytes, as: UTF8.self)
        #expect(line.hasPrefix(#"{"class":"SKY","time":"2024-06-05T12:30:00.000Z","vdop":0.91,"hdop":0.62,"pdop":1.10,"xdop":0.55,"ydop":0.73,"tdop":1.10,"gdop":2.39,"nSat":14,"uSat":12,"satellites":[{"PRN":5,"#), "\(line)")
    }

    @Test("an epoch is written as gpsd sends it: its SKY, then its TPV, each handed out with its class; a sky no fix completed alone")
    func epochReports() throws {
        var text = nmea("GPZDA,120000.00,05,06,2024,00,00")
        text += nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,1,05,1.9,10.2,M,47.0,M,,")
        text += nmea("GPGSA,A,3,05,13,15,18,23,,,,,,,,2.6,1.9,1.8")
        text += nmea("GPGGA,120001.00,5200.0000,N,00400.0000,W,1,05,1.9,10.2,M,47.0,M,,")
        let epoch = decode(text).epochs[0]
        let fix = try #require(epoch.fix)
        var writer = JSONWriter()
        var reports: [(GPSDJSON.ReportClass, String)] = []
        GPSDJSON.write(epoch, device: "gps0", reusing: &writer) { reportClass, report in
            reports.append((reportClass, String(decoding: report.bytes, as: UTF8.self)))
        }
        var sky = JSONWriter(), tpv = JSONWriter()
        GPSDJSON.writeSKY(try #require(epoch.sky), device: "gps0", to: &sky)
        GPSDJSON.writeTPV(fix, device: "gps0", to: &tpv)
        #expect(reports.map(\.0) == [.sky, .tpv])
        #expect(reports.map(\.1) == [String(decoding: sky.bytes, as: UTF8.self), String(decoding: tpv.bytes, as: UTF8.self)])
        // Views with no fix after them: an epoch of its sky alone, at the end of the input.
        let alone = decode(nmea("GPGSV,1,1,01,05,40,083,46")).epochs
        #expect(alone.count == 1)
        let last = try #require(alone.first)
        #expect(last.fix == nil && last.sky?.views.count == 1)
        reports = []
        GPSDJSON.write(last, reusing: &writer) { reportClass, report in
            reports.append((reportClass, String(decoding: report.bytes, as: UTF8.self)))
        }
        #expect(reports.map(\.0) == [.sky])
    }

    @Test("strings are escaped")
    func escaping() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.string("text", "a\"b\\c\u{01}")
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"text":"a\"b\\c\u0001"}"#)
    }

    @Test("numbers round half away from zero at the last digit, and large ones survive")
    func numbers() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.number("a", -0.0004, decimals: 3)
        writer.number("b", 1.0005, decimals: 3)
        writer.number("c", 123456789012.5, decimals: 1)
        writer.number("d", Double.nan, decimals: 1)
        writer.integer("e", -42)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":0.000,"b":1.001,"c":123456789012.5,"e":-42}"#)
    }
}
