import Foundation
import NMEA
import Testing
import TestSupport

/// Every log of the corpus decoded with the integrity checks on, at their default limits: the
/// events are exactly those the README lists and justifies (each is really in its log), so a
/// change to a check that flags a benign receiver, or stops flagging a real fault, is seen.
@Suite("Integrity on the corpus", .mayBlock, .enabled(if: Corpus.isAvailable, "../shared/corpus is absent: the integrity survey not checked"))
struct CorpusIntegrityTests {
    /// The README's list: log, check, the fix's time.
    static let expected: Set<String> = [
        "gpsd-nmea/ch-4711.log signal-loss 2009-12-05T13:56:59.997Z",
        "gpsd-nmea/garmin-10x.log time-step 2010-07-18T16:50:44.000Z",
        "gpsd-nmea/garmin48.log time-step 2001-06-06T22:53:33.000Z",
        "gpsd-nmea/nl2008u.log time-step 2015-10-10T09:15:03.000Z",
        "gpsd-nmea/nl2008u.log time-step 2015-10-10T09:34:52.000Z",
        "gpsd-nmea/nmea-rtk.log time-step 2020-03-18T13:38:59.800Z",
        "gpsd-nmea/ublox-lea-5h.log time-step 2010-08-21T08:55:15.000Z",
    ]

    @Test("Every corpus log: the events are the seven the README justifies, and no other")
    func survey() throws {
        var found: Set<String> = []
        for folder in ["gpsd-nmea", "gpsd-mixed"] {
            for log in try Corpus.logs(in: folder) {
                let bytes = Array(try Data(contentsOf: log))
                let decoder = NMEADecoder()
                var check = IntegrityCheck()
                let name = folder + "/" + log.lastPathComponent
                let handle: (NMEADecoder.Event) -> Void = { event in
                    guard case .epoch(var epoch) = event else { return }
                    for event in check.check(&epoch) {
                        found.insert("\(name) \(event.kind) \(event.time.map { "\($0)" } ?? "no-time")")
                    }
                }
                bytes.withUnsafeBytes { decoder.feed($0, handle) }
                decoder.finish(handle)
            }
        }
        #expect(found.subtracting(Self.expected).sorted() == [], "flagged, and not in the README's list")
        #expect(Self.expected.subtracting(found).sorted() == [], "in the README's list, and no longer flagged")
    }
}
