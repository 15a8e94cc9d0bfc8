import Testing
@testable import NMEAServer
import NMEAStream

/// The sky `?POLL` reports, for a receiver that sends GSV only every few epochs.
@Suite("POLL's sky")
struct PollSkyTests {
    static let view = SatelliteView(talker: .gps, signalID: nil, satellitesInView: 2,
                                    satellites: [Satellite(id: nil, nmeaID: 5), Satellite(id: nil, nmeaID: 13)], time: nil)

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
        let latest = ServedDevice.latest(Self.dilutionsAlone(hdop: 1.4), after: withViews)
        #expect(latest.views == [Self.view])
        #expect(latest.hdop == 1.4 && latest.satellitesUsed == 7)
    }

    @Test("a sky with views replaces what was kept; with nothing kept, the dilutions alone are the latest")
    func replaces() {
        let withViews = Sky(views: [Self.view])
        #expect(ServedDevice.latest(withViews, after: Self.dilutionsAlone(hdop: 1.4)) == withViews)
        #expect(ServedDevice.latest(Self.dilutionsAlone(hdop: 1.4), after: nil) == Self.dilutionsAlone(hdop: 1.4))
    }
}
