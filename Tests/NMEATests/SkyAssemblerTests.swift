import Testing
@testable import NMEA
import TestSupport

@Suite("sky assembler", .mayBlock)
struct SkyAssemblerTests {
    func view(_ talker: Talker, signal: Int? = nil, second: Int?, satellites: [Int]) -> SatelliteView {
        SatelliteView(talker: talker, signalID: signal, satellitesInView: satellites.count,
                      satellites: satellites.map { Satellite(id: nil, nmeaID: $0) },
                      time: second.map { UTCTime(date: CalendarDate(year: 2024, month: 6, day: 5)!, timeOfDay: TimeOfDay(hour: 12, minute: 0, second: $0)!) })
    }

    @Test("the views of one epoch make one sky, completed by its fix, every satellite listed once per signal")
    func oneEpoch() {
        var assembler = SkyAssembler()
        #expect(assembler.add(view(.gps, signal: 1, second: 0, satellites: [5, 13, 15])) == nil)
        #expect(assembler.add(view(.gps, signal: 8, second: 0, satellites: [5, 13])) == nil)
        #expect(assembler.add(view(.glonass, second: 0, satellites: [70, 71])) == nil)
        let sky = assembler.finish()
        #expect(sky?.views.map(\.talker) == [.gps, .gps, .glonass])
        #expect(sky?.satelliteCount == 7)
        #expect(sky?.time == view(.gps, second: 0, satellites: []).time)
        #expect(assembler.finish() == nil, "nothing left once finished")
    }

    @Test("without fixes: another time, or a talker and signal already gathered, completes the sky before it")
    func withoutFixes() {
        var assembler = SkyAssembler()
        _ = assembler.add(view(.gps, second: 0, satellites: [1]))
        _ = assembler.add(view(.galileo, second: 0, satellites: [301]))
        let first = assembler.add(view(.gps, second: 1, satellites: [1, 2]))
        #expect(first?.views.map(\.talker) == [.gps, .galileo])
        // No time at all (a receiver with no fix yet): the round repeating is what tells.
        _ = assembler.add(view(.glonass, second: nil, satellites: [70]))
        let second = assembler.add(view(.gps, second: nil, satellites: [3]))
        #expect(second?.views.map(\.satelliteCount) == [2, 1])
        #expect(second?.usedCount == 0)
    }

    @Test("the fix completes its epoch's sky with its dilutions and count used; with no view, those alone; with nothing, no sky")
    func completedByTheFix() {
        var fix = Fix()
        fix.time = view(.gps, second: 3, satellites: []).time
        fix.hdop = 0.9
        fix.vdop = 1.3
        fix.pdop = 1.6
        fix.satellitesUsed = 10
        var assembler = SkyAssembler()
        _ = assembler.add(view(.gps, second: 3, satellites: [5, 13]))
        let sky = assembler.finish(with: fix)
        #expect(sky?.views.count == 1 && sky?.hdop == 0.9 && sky?.vdop == 1.3 && sky?.pdop == 1.6 && sky?.satellitesUsed == 10)
        // The next epoch has no GSV: its sky is the fix's dilutions, at the fix's time.
        fix.time = view(.gps, second: 4, satellites: []).time
        let bare = assembler.finish(with: fix)
        #expect(bare?.views.isEmpty == true && bare?.hdop == 0.9 && bare?.satellitesUsed == 10 && bare?.time == fix.time)
        // No fix yet: no dilution, 0 used, as a receiver without a fix reports; nothing to say.
        var noFix = Fix()
        noFix.satellitesUsed = 0
        #expect(assembler.finish(with: noFix) == nil)
    }
}

private extension SatelliteView {
    var satelliteCount: Int { satellites.count }
}
