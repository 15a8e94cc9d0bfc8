import Testing
import NMEA
@testable import GPSDProtocol

/// `TOFF` and `PPS` as gpsd_json(5) lays them out, and who gets them.
@Suite("TOFF and PPS reports")
struct TimeOffsetReportTests {
    @Test("TOFF and PPS lines: gpsd's members in gpsd's order, qErr only on PPS and only when known")
    func lines() {
        let toff = TimeOffsetReport(kind: .serialTime, device: "/dev/ttyACM0", realSeconds: 1_717_588_801, realNanoseconds: 0,
                                    clockSeconds: 1_717_588_801, clockNanoseconds: 123_456_789, precision: -1, quantizationError: 5)
        #expect(ServerReply.timeOffset(toff).line
                == #"{"class":"TOFF","device":"/dev/ttyACM0","real_sec":1717588801,"real_nsec":0,"clock_sec":1717588801,"clock_nsec":123456789,"precision":-1}"# + "\r\n")
        var pps = toff
        pps.kind = .pulse
        pps.clockNanoseconds = 999
        pps.precision = -20
        #expect(ServerReply.timeOffset(pps).line
                == #"{"class":"PPS","device":"/dev/ttyACM0","real_sec":1717588801,"real_nsec":0,"clock_sec":1717588801,"clock_nsec":999,"precision":-20,"qErr":5}"# + "\r\n")
        pps.quantizationError = nil
        #expect(!ServerReply.timeOffset(pps).line.contains("qErr"))
    }

    @Test("the time samples go to a watcher with pps, whatever else it asked; not to one without")
    func streams() throws {
        var policy = WatchPolicy()
        try policy.apply(["enable": .bool(true), "pps": .bool(true)])
        #expect(policy.streams(from: "/dev/ttyACM0")?.contains(.timing) == true)
        try policy.apply(["enable": .bool(true), "json": .bool(true)])
        #expect(policy.streams(from: "/dev/ttyACM0")?.contains(.timing) == false, "pps goes back to false when left out, as in gpsd")
    }
}
