import NMEAStream
import Testing
@testable import nmeastream
import TestSupport

@Suite("The live panel's layout", .mayBlock)
struct LivePanelLayoutTests {
    @Test("a terminal too short for every satellite: the panel keeps to its rows and counts the rest on its last line")
    func keepsToTheRows() {
        let panel = LivePanel(title: "nmeastream demo")
        let satellites = (1...20).map { Satellite(id: SatelliteID(constellation: .gps, svid: $0), nmeaID: $0, elevation: 30, azimuth: 90, snr: 40) }
        panel.update(SatelliteView(talker: .gps, satellites: satellites))
        let all = panel.render()
        #expect(all.count == 10 + 20)
        let short = panel.render(rows: 15)
        #expect(short.count == 15)
        #expect(short.last == "… and 16 more satellites (a taller terminal shows them)")
        #expect(short.filter { $0.hasPrefix("GPS ") }.count == 4)
        #expect(panel.render(rows: 5).count == 5)
    }
}
