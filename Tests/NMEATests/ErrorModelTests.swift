import Foundation
import Testing
@testable import NMEA
import TestSupport

@Suite("Dilutions from geometry, gpsd's error model and the magnetic course", .mayBlock)
struct ErrorModelTests {
    @Test("one satellite overhead and three on the horizon 120 degrees apart: the dilutions worked by hand")
    func dilutionsByHand() throws {
        // GᵀG is diag(1.5, 1.5) for east and north, and [[1, 1], [1, 4]] for up and clock.
        let dilutions = try #require(Dilutions(directions: Self.symmetric))
        #expect(abs(dilutions.x - (1 / 1.5).squareRoot()) < 1e-9)
        #expect(abs(dilutions.y - (1 / 1.5).squareRoot()) < 1e-9)
        #expect(abs(dilutions.vertical - (4.0 / 3).squareRoot()) < 1e-9)
        #expect(abs(dilutions.time - (1.0 / 3).squareRoot()) < 1e-9)
        #expect(abs(dilutions.horizontal - (2 / 1.5).squareRoot()) < 1e-9)
        let geometric: Double = (1 / 1.5 + 1 / 1.5 + 4.0 / 3 + 1.0 / 3).squareRoot()
        #expect(abs(dilutions.geometric - geometric) < 1e-9)
    }

    @Test("fewer than four satellites, or four in one plane, give no dilutions")
    func degenerateGeometry() {
        let three: [(azimuth: Double, elevation: Double)] = [(0, 90), (0, 10), (120, 10)]
        #expect(Dilutions(directions: three) == nil)
        // All on the horizon: nothing tells up from the clock.
        let horizon: [(azimuth: Double, elevation: Double)] = [(0, 0), (90, 0), (180, 0), (270, 0)]
        #expect(Dilutions(directions: horizon) == nil)
        #expect(Dilutions(directions: [(azimuth: Double, elevation: Double)]()) == nil)
    }

    @Test("a sky's geometry counts each used satellite once, over every signal it was heard on, and skips unusable directions")
    func skyGeometry() throws {
        func satellite(_ svid: Int, _ azimuth: Double?, _ elevation: Double?, used: Bool = true) -> Satellite {
            Satellite(id: SatelliteID(constellation: .gps, svid: svid), nmeaID: svid, elevation: elevation, azimuth: azimuth,
                      snr: 40, used: used)
        }
        let l1 = SatelliteView(talker: .gps, signalID: 1, satellites: [
            satellite(1, 0, 90), satellite(2, 0, 0), satellite(3, 120, 0), satellite(4, 240, 0),
            satellite(5, 45, 45, used: false), satellite(6, nil, 30), satellite(7, 400, 30),
        ])
        let l5 = SatelliteView(talker: .gps, signalID: 7, satellites: [satellite(1, 0, 90), satellite(3, 120, 0)])
        let expected = try #require(Dilutions(directions: Self.symmetric))
        #expect(Sky(views: [l1, l5]).geometry == expected)
        #expect(Sky(views: [l1]).geometry == expected)
        #expect(Sky(views: [l5]).geometry == nil)
    }

    @Test("an epoch's error estimates: the receiver's dilutions and the geometry times gpsd's UERE, then rates from the previous fix")
    func modelledErrors() throws {
        var text = ""
        for (second, latitude) in [(0, "5200.0000"), (1, "5200.0100")] {
            text += nmea("GPGGA,12000\(second).00,\(latitude),N,00400.0000,W,1,04,0.9,10.2,M,47.0,M,,")
            text += nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.6,0.9,1.3")
            text += nmea("GPGSV,1,1,04,01,90,000,40,02,00,000,40,03,00,120,40,04,00,240,40")
            text += nmea("GPRMC,12000\(second).00,A,\(latitude),N,00400.0000,W,0.0,0.0,050624,,,A")
        }
        let result = decode(text)
        try #require(result.fixes.count == 2)
        let geometry = try #require(Dilutions(directions: Self.symmetric))
        let first = result.fixes[0].errorEstimates
        #expect(first.time == 0.005)
        #expect(abs(first.longitude! - geometry.x * 15) < 1e-9)
        #expect(abs(first.latitude! - geometry.y * 15) < 1e-9)
        #expect(abs(first.horizontal! - 0.9 * 19) < 1e-9)
        #expect(abs(first.vertical! - 1.3 * 23) < 1e-9)
        #expect(abs(first.spherical! - 1.6 * 19) < 1e-9)
        #expect(first.speed == nil && first.track == nil && first.climb == nil)

        let second = result.fixes[1].errorEstimates
        let axis = max(geometry.x, geometry.y) * 15
        #expect(abs(second.speed! - 2 * axis) < 1e-9)
        #expect(abs(second.climb! - 2 * 1.3 * 23) < 1e-9)
        // 0.01 minute of latitude is about 18.5 m, more than the position error: a course error.
        let travelled: Double = ellipsoidDistance(52.0, -4.0, 52.0 + 0.01 / 60.0, -4.0)
        #expect(abs(nearbyDistance(52.0, -4.0, 52.0 + 0.01 / 60.0, -4.0) / travelled - 1) < 0.005)
        let hypotenuse: Double = (travelled * travelled + axis * axis).squareRoot()
        let expectedTrack: Double = 2 * asinDegrees(axis / hypotenuse)
        #expect(abs(second.track! - expectedTrack) < 1e-9)
    }

    @Test("the receiver's GST and GBS deviations come before the model; differential fixes use gpsd's smaller UERE")
    func receiverErrorsFirst() throws {
        var text = nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,2,04,0.9,10.2,M,47.0,M,3.0,0120")
        text += nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.6,0.9,1.3")
        text += nmea("GPGBS,120000.00,2.5,1.5,4.0,,,,")
        text += nmea("GPRMC,120000.00,A,5200.0000,N,00400.0000,W,0.0,0.0,050624,,,D")
        let gbs = try #require(decode(text).fixes.first).errorEstimates
        #expect(gbs.latitude == 2.5 && gbs.longitude == 1.5 && gbs.vertical == 4.0)
        #expect(abs(gbs.horizontal! - (2.5 * 2.5 + 1.5 * 1.5).squareRoot()) < 1e-9)
        #expect(abs(gbs.spherical! - 1.6 * 4.75) < 1e-9)

        var gst = nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,2,04,0.9,10.2,M,47.0,M,3.0,0120")
        gst += nmea("GPGSA,A,3,01,02,03,04,,,,,,,,,1.6,0.9,")
        gst += nmea("GPGST,120000.00,1.1,,,,0.8,0.6,")
        let fromGST = try #require(decode(gst).fixes.first).errorEstimates
        #expect(fromGST.latitude == 0.8 && fromGST.longitude == 0.6 && fromGST.vertical == nil)
        let noGeometry = try #require(decode(nmea("GPGGA,120000.00,5200.0000,N,00400.0000,W,2,04,0.9,10.2,M,47.0,M,3.0,0120")).fixes.first)
        #expect(abs(noGeometry.errorEstimates.horizontal! - 0.9 * 4.75) < 1e-9)
        #expect(noGeometry.errorEstimates.longitude == nil && noGeometry.errorEstimates.vertical == nil)
    }

    @Test("Garmin's PGRME estimates, taken as gpsd takes them (50% figures scaled to its 95%, the horizontal one shared by the axes), before the model and after GST")
    func garminEstimates() throws {
        // garmin17n.log's first cycle: gpsd reports epx and epy 2.496, epv 4.983, sep 6.229.
        var text = nmea("GPRMC,093802,A,5213.1439,N,02100.6511,E,000.0,226.0,160305,004.2,E,D")
        text += nmea("GPGGA,093802,5213.1439,N,02100.6511,E,2,10,0.9,137.2,M,36.2,M,,")
        text += nmea("GPGSA,A,3,03,06,15,16,18,19,21,22,,27,29,,1.6,0.9,1.3")
        text += nmea("PGRME,1.7,M,2.4,M,3.0,M")
        let estimates = try #require(decode(text).fixes.first).errorEstimates
        #expect(abs(try #require(estimates.longitude) - 2.496) < 0.0005 && estimates.latitude == estimates.longitude)
        #expect(abs(try #require(estimates.vertical) - 4.983) < 0.0005)
        #expect(abs(try #require(estimates.spherical) - 6.229) < 0.0005)
        #expect(abs(try #require(estimates.horizontal) - 0.9 * 4.75) < 1e-9, "eph: the model's, from HDOP, as gpsd's")

        let withGST = try #require(decode(text + nmea("GPGST,093802,1.1,,,,0.8,0.6,")).fixes.first).errorEstimates
        #expect(withGST.latitude == 0.8 && withGST.longitude == 0.6, "GST's deviations first")
    }

    @Test("a fix without a position has a time error only; a fix without a time has none")
    func noFixNoEstimates() throws {
        let noFix = try #require(decode(nmea("GPRMC,120000.00,V,,,,,,,050624,,,N")).fixes.first)
        #expect(noFix.errorEstimates.time == 0.005)
        var alone = noFix.errorEstimates
        alone.time = nil
        #expect(alone.isEmpty)
        let untimed = try #require(decode(nmea("GPGSA,A,1,,,,,,,,,,,,,99.0,99.0,99.0")).fixes.first)
        #expect(untimed.errorEstimates.isEmpty)
    }

    @Test("the magnetic course: VTG's when it gives one, else the true course minus an east variation, within 0 to 360")
    func magneticTrack() throws {
        let rmc = try #require(decode(nmea("GPRMC,093802,A,5213.1439,N,02100.6511,E,000.0,226.0,160305,004.2,E,D")).fixes.first)
        #expect(abs(rmc.magneticTrack! - 221.8) < 1e-9)
        let wrapped = try #require(decode(nmea("GPRMC,093802,A,5213.1439,N,02100.6511,E,000.0,002.0,160305,004.2,E,D")).fixes.first)
        #expect(abs(wrapped.magneticTrack! - 357.8) < 1e-9)
        let west = try #require(decode(nmea("GPRMC,093802,A,5213.1439,N,02100.6511,E,000.0,359.0,160305,003.0,W,A")).fixes.first)
        #expect(abs(west.magneticTrack! - 2) < 1e-9)
        var text = nmea("GPRMC,093802,A,5213.1439,N,02100.6511,E,000.0,226.0,160305,004.2,E,D")
        text += nmea("GPVTG,226,T,222,M,000.0,N,0000.0,K,D")
        #expect(decode(text).fixes.last?.magneticTrack == 222)
        let noVariation = try #require(decode(nmea("GPRMC,093802,A,5213.1439,N,02100.6511,E,000.0,226.0,160305,,,A")).fixes.first)
        #expect(noVariation.magneticTrack == nil)
    }

    /// One satellite overhead, three on the horizon 120 degrees apart.
    private static let symmetric: [(azimuth: Double, elevation: Double)] = [(0, 90), (0, 0), (120, 0), (240, 0)]

    private func asinDegrees(_ value: Double) -> Double { asin(value) * 180 / .pi }
}
