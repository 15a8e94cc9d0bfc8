import Testing
@testable import NMEA
import TestSupport

@Suite("Field-level rejection", .mayBlock)
struct FieldLevelRejectionTests {
    @Test("a magnetic variation of 999.9, or a direction that is not E/W, loses the variation only", arguments: [
        ("999.9,E", 10), ("2.0,X", 11), (",X", 11), ("x,", 10),
    ])
    func magneticVariation(variation: String, field: Int) throws {
        let result = decode(nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.5,54.7,050624,\(variation),A"))
        guard case .rmc(let rmc)? = result.decoded.first else {
            Issue.record("no RMC")
            return
        }
        #expect(rmc.magneticVariation == nil)
        #expect(rmc.date == TwoDigitDate(day: 5, month: 6, yearInCentury: 24) && rmc.mode == .autonomous)
        #expect(result.rejects.map(\.fieldIndex) == [field])
        #expect(result.rejects.first?.address == "GPRMC")
        // The epoch keeps its date, so its time: the whole point.
        let fix = try #require(result.fixes.first)
        #expect(fix.time != nil && fix.mode == .twoD && fix.latitude != nil)
    }

    @Test("a malformed field is reported right after its sentence, before the fix it is part of")
    func eventOrder() {
        let decoder = NMEADecoder()
        var events: [String] = []
        let handle: (NMEADecoder.Event) -> Void = { event in
            switch event {
            case .sentence(let raw): events.append("sentence \(raw.address.text)")
            case .ubx(let frame): events.append("ubx \(frame.kind)")
            case .rejected(let reject): events.append("reject \(reject.address ?? "") \(reject.fieldIndex ?? -1) \(reject.byteCount)")
            case .epoch(let epoch):
                for _ in epoch.views { events.append("view") }
                if epoch.fix != nil { events.append("fix") }
            }
        }
        decoder.feed(Array((nmea("GPGGA,120000.00,4807.038,N,01131.000,E,1,08,abc,545.4,M,46.9,M,,")
            + nmea("GPGGA,120001.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")).utf8), handle)
        decoder.finish(handle)
        #expect(events == ["sentence GPGGA", "reject GPGGA 8 3", "sentence GPGGA", "fix", "fix"])
        #expect(decoder.statistics.rejects[.malformedField] == 1)
        #expect(decoder.statistics.rejectedBytes[.malformedField] == 3)
        #expect(decoder.statistics.sentences["GPGGA"] == 2)
    }

    @Test("decode(_:malformed:) gives the sentence and lists each bad field; decode(_:) the sentence alone")
    func decodeAPI() {
        let text = nmea("GPGSA,A,7,01,xx,03,,,,,,,,,,1.8,-0.9,1.5")
        let decoder = NMEADecoder()
        var sentences: [NMEASentence] = []
        var problems: [MalformedField] = []
        decoder.feed(Array(text.utf8)) { event in
            guard case .sentence(let raw) = event else { return }
            if let sentence = NMEASentence.decode(raw, malformed: &problems) { sentences.append(sentence) }
            #expect(NMEASentence.decode(raw) == sentences.last)
        }
        #expect(problems.map(\.fieldIndex) == [2, 4, 16])
        guard case .gsa(let gsa)? = sentences.first else {
            Issue.record("no GSA")
            return
        }
        #expect(gsa.fixType == nil && Array(gsa.satellites) == [1, 3])
        #expect(gsa.pdop == 1.8 && gsa.hdop == nil && gsa.vdop == 1.5 && gsa.selectionMode == UInt8(ascii: "A"))
    }

    @Test("pairs fail together and each bad field of a pair is reported")
    func pairs() {
        // The altitude's unit is wrong: no altitude; the geoid separation is kept.
        var result = decode(nmea("GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,F,46.9,M,,"))
        guard case .gga(let gga)? = result.decoded.first else {
            Issue.record("no GGA")
            return
        }
        #expect(gga.altitudeMSL == nil && gga.geoidSeparation == 46.9 && gga.latitude != nil)
        #expect(result.rejects.map(\.fieldIndex) == [10])
        // Both halves of a coordinate bad: both reported, the other coordinate kept.
        result = decode(nmea("GPGLL,48x7.038,Q,01131.000,E,120000.00,A,A"))
        guard case .gll(let gll)? = result.decoded.first else {
            Issue.record("no GLL")
            return
        }
        #expect(gll.latitude == nil && gll.longitude == 11 + 31.0 / 60)
        #expect(result.rejects.map(\.fieldIndex) == [1, 2])
        // A value without the hemisphere it needs.
        result = decode(nmea("GPGLL,4807.038,,01131.000,E,120000.00,A,A"))
        #expect(result.rejects.map(\.fieldIndex) == [2])
    }

    @Test("a GSV part with a malformed count or number is kept but placed in no group")
    func gsvEssentials() {
        let result = decode(nmea("GPGSV,x,1,01,05,40,083,46") + nmea("GPGSV,1,1,01,05,40,083,46"))
        guard case .gsv(let gsv)? = result.decoded.first else {
            Issue.record("no GSV")
            return
        }
        #expect(gsv.messageCount == nil && gsv.messageNumber == 1 && gsv.satellites.count == 1)
        #expect(result.rejects.map(\.fieldIndex) == [1])
        #expect(result.views.count == 1 && result.views[0].satellites.count == 1)
    }
}

@Suite("Time without a fix", .mayBlock)
struct TimeWithoutFixTests {
    @Test("an RMC marked V with its time and date reports that time, in mode 1")
    func invalidRMC() throws {
        let result = decode(nmea("GPRMC,120000.00,V,,,,,,,050624,,,N") + nmea("GPRMC,120001.00,V,,,,,,,050624,,,N"))
        #expect(result.fixes.count == 2)
        #expect(result.fixes.allSatisfy { $0.mode == .noFix && $0.latitude == nil })
        #expect(result.fixes.map { $0.time?.secondsSince1970 } == [1_717_588_800, 1_717_588_801])
    }

    @Test("a cycle of ZDA and a no-fix GGA reports its time")
    func zdaAndGGA() {
        let result = decode(nmea("GPZDA,120000.00,05,06,2024,,") + nmea("GPGGA,120000.00,,,,,0,00,,,M,,M,,"))
        #expect(result.fixes.count == 1)
        #expect(result.fixes[0].mode == .noFix)
        #expect(result.fixes[0].time?.secondsSince1970 == 1_717_588_800)
    }

    @Test("the 4.10 navigational status V (no status given) does not make a valid RMC no fix")
    func navigationalStatus() {
        let result = decode(nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.5,54.7,050624,,,A,V"))
        #expect(result.fixes.first?.mode == .twoD)
        #expect(result.fixes.first?.navigationalStatus == .notValid)
    }
}

@Suite("Geodesy", .mayBlock)
struct GeodesyTests {
    @Test("distance on the WGS-84 ellipsoid: Vincenty's own test line, Flinders Peak to Buninyong")
    func vincenty() {
        func degrees(_ d: Double, _ m: Double, _ s: Double) -> Double { d + m / 60 + s / 3600 }
        let distance = ellipsoidDistance(-degrees(37, 57, 3.72030), degrees(144, 25, 29.52440),
                                         -degrees(37, 39, 10.15610), degrees(143, 55, 35.38390))
        #expect(abs(distance - 54_972.271) < 0.001)
        #expect(ellipsoidDistance(48, 11, 48, 11) == 0)
        // One second of latitude at 45 degrees: 30.87 m on the ellipsoid (30.92 m on the sphere).
        #expect(abs(ellipsoidDistance(45, 0, 45 + 1.0 / 3600, 0) - 30.87) < 0.01)
    }
}
