import Testing
@testable import NMEA
import TestSupport

@Suite("The assemblers on their own", .mayBlock)
struct StandaloneAssemblerTests {
    @Test("EpochAssembler fed decoded sentences makes the decoder's fixes and views", arguments: ["sirf-cycle.nmea", "ublox-multi.nmea"])
    func epochAssembler(log: String) throws {
        let reference = decode(try fixture(log))
        #expect(!reference.fixes.isEmpty)
        var assembler = EpochAssembler()
        var fixes: [Fix] = []
        var views: [SatelliteView] = []
        let collect: (EpochAssembler.Output) -> Void = { output in
            guard let epoch = output.epoch else { return }
            views += epoch.views
            if let fix = epoch.fix { fixes.append(fix) }
        }
        for sentence in reference.decoded { assembler.add(sentence, emit: collect) }
        assembler.finish(emit: collect)
        #expect(fixes == reference.fixes)
        #expect(views == reference.views)
    }

    @Test("SatelliteViewAssembler completes a group whose parts come in any order")
    func anyOrder() {
        var sky = SatelliteViewAssembler()
        #expect(sky.add(part(2, of: 3, ids: [5, 6, 7, 8])).completed == nil)
        #expect(sky.add(part(3, of: 3, ids: [9])).completed == nil)
        let result = sky.add(part(1, of: 3, ids: [1, 2, 3, 4]))
        #expect(result.dropped == nil)
        #expect(result.completed?.satellites.map(\.nmeaID) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(result.completed?.satellitesInView == 9)
        #expect(result.completed?.satellites.allSatisfy { !$0.used } == true, "used flags come from GSA, later")
    }

    @Test("SatelliteViewAssembler drops a group that starts again or changes its count before it is complete")
    func dropped() {
        var sky = SatelliteViewAssembler()
        #expect(sky.add(part(1, of: 2, ids: [1, 2, 3, 4])).completed == nil)
        let again = sky.add(part(1, of: 2, ids: [1, 2, 3, 4]))
        #expect(again.dropped?.reason == .incompleteSatelliteView)
        #expect(again.completed == nil)
        let recount = sky.add(part(2, of: 3, ids: [5]))
        #expect(recount.dropped?.reason == .incompleteSatelliteView)
        // The part that changed the count opened the new group.
        #expect(sky.add(part(1, of: 3, ids: [1, 2, 3, 4])).completed == nil)
        #expect(sky.add(part(3, of: 3, ids: [9])).completed?.satellites.map(\.nmeaID) == [1, 2, 3, 4, 5, 9])
    }

    @Test("SatelliteViewAssembler keeps one group per talker and signal")
    func groupsApart() {
        var sky = SatelliteViewAssembler()
        #expect(sky.add(part(1, of: 2, ids: [1, 2, 3, 4])).completed == nil)
        let glonass = sky.add(part(1, of: 1, ids: [70], talker: "GL"))
        #expect(glonass.completed?.satellites.first?.id?.constellation == .glonass)
        #expect(sky.add(part(2, of: 2, ids: [5])).completed?.satellites.count == 5)
    }

    private func part(_ number: Int, of count: Int, ids: [Int], talker: String = "GP") -> GSV {
        var text = "\(talker)GSV,\(count),\(number),\(count == 3 ? 9 : 5)"
        for id in ids { text += ",\(String(format: "%02d", id)),40,120,35" }
        guard case .gsv(let gsv)? = try? sentence(text) else { fatalError("not a GSV: \(text)") }
        return gsv
    }
}
