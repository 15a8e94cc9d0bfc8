import Testing
@testable import GPSDProtocol
import NMEA

/// The sky `?POLL` reports, for a receiver that sends GSV only every few epochs.
@Suite("POLL's latest fix and sky")
struct LatestReportsTests {
    static let view = SatelliteView(talker: .gps, signalID: nil, satellitesInView: 2,
                                    satellites: [Satellite(id: nil, nmeaID: 5), Satellite(id: nil, nmeaID: 13)], time: nil)
    static let fix = Fix()

    static func dilutionsAlone(hdop: Double) -> Sky {
        var sky = Sky(views: [])
        sky.hdop = hdop
        sky.satellitesUsed = 7
        return sky
    }

    @Test("an epoch without GSV keeps the satellites of the last one that had them, with its own dilutions, as gpsd keeps its sky view")
    func keepsTheSatellites() {
        var withViews = Sky(views: [Self.view])
        withViews.hdop = 0.9
        var latest = LatestReports()
        latest.take(Epoch(sky: withViews, fix: Self.fix))
        latest.take(Epoch(sky: Self.dilutionsAlone(hdop: 1.4), fix: Self.fix))
        #expect(latest.sky?.views == [Self.view])
        #expect(latest.sky?.hdop == 1.4 && latest.sky?.satellitesUsed == 7)
        // An epoch with no sky at all keeps the sky as it was.
        latest.take(Epoch(sky: nil, fix: Self.fix))
        #expect(latest.sky?.hdop == 1.4 && latest.fix != nil)
    }

    @Test("a sky with views replaces what was kept; with nothing kept, the dilutions alone are the latest; a sky with no fix replaces it as it is")
    func replaces() {
        let withViews = Sky(views: [Self.view])
        var latest = LatestReports()
        #expect(latest.fix == nil && latest.sky == nil)
        latest.take(Epoch(sky: Self.dilutionsAlone(hdop: 1.4), fix: Self.fix))
        #expect(latest.sky == Self.dilutionsAlone(hdop: 1.4))
        latest.take(Epoch(sky: withViews, fix: Self.fix))
        #expect(latest.sky == withViews)
        latest.take(Epoch(sky: Self.dilutionsAlone(hdop: 2), fix: nil))
        #expect(latest.sky == Self.dilutionsAlone(hdop: 2))
    }
}
