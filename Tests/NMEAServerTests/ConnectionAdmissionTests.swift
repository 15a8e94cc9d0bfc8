import Testing
@testable import NMEAServer
import TestSupport

@Suite("Connection admission", .mayBlock)
struct ConnectionAdmissionTests {
    @Test("the page and the NMEA feed each hold at most a quarter of the limit; gpsd's port may take the rest, up to the limit")
    func shares() {
        var admission = ConnectionAdmission(limit: 1024)
        #expect((0..<2000).filter { _ in admission.admit(.nmeaFeed) }.count == 256)
        #expect((0..<2000).filter { _ in admission.admit(.page) }.count == 256)
        #expect((0..<2000).filter { _ in admission.admit(.gpsd) }.count == 512)
        #expect(admission.total == 1024)
        admission.release(.nmeaFeed)
        #expect(!admission.admit(.page) && admission.admit(.gpsd), "the slot freed is taken by the first to come within its share")
        admission.release(.gpsd)
        admission.release(.gpsd)
        #expect(admission.admit(.nmeaFeed) && !admission.admit(.nmeaFeed))
        // A release of nothing counts nothing.
        var empty = ConnectionAdmission(limit: 4)
        empty.release(.page)
        #expect(empty.total == 0 && empty.admit(.page) && !empty.admit(.page))
    }
}
