import Testing
import TestSupport
@testable import NMEA

/// ``Fix/receivedAt``: when an epoch's first byte arrived, from the stamps its reader gave
/// the chunks.
@Suite("Reception time of an epoch", .mayBlock)
struct ReceptionTimeTests {
    /// A stamp `seconds` after midnight, 2024-06-05.
    static func stamp(_ seconds: Int64) -> UTCTime {
        UTCTime(date: CalendarDate(daysSince1970: 19_879), timeOfDay: TimeOfDay(nanosecondsSinceMidnight: seconds * 1_000_000_000))
    }

    /// Feeds `chunks` with their stamps, then finishes; the fixes' reception times.
    func receptionTimes(_ chunks: [(String, UTCTime?)]) -> [UTCTime?] {
        let decoder = NMEADecoder()
        var times: [UTCTime?] = []
        let collect: (NMEADecoder.Event) -> Void = { event in
            if let fix = event.fix { times.append(fix.receivedAt) }
        }
        for (text, stamp) in chunks {
            Array(text.utf8).withUnsafeBytes { decoder.feed($0, receivedAt: stamp, collect) }
        }
        decoder.finish(collect)
        return times
    }

    let epoch0 = String(decoding: SyntheticEpochs.epoch(0), as: UTF8.self)
    let epoch1 = String(decoding: SyntheticEpochs.epoch(1), as: UTF8.self)
    let epoch2 = String(decoding: SyntheticEpochs.epoch(2), as: UTF8.self)

    @Test("each epoch takes the stamp of the chunk its first sentence began in, even when that sentence ends chunks later")
    func firstByte() {
        let split = epoch1.index(epoch1.startIndex, offsetBy: 20)
        let times = receptionTimes([
            (epoch0, Self.stamp(100)),
            (String(epoch1[..<split]), Self.stamp(200)),
            ("", Self.stamp(250)),
            (String(epoch1[split...]), Self.stamp(300)),
            (epoch2, Self.stamp(400)),
        ])
        #expect(times == [Self.stamp(100), Self.stamp(200), Self.stamp(400)])
    }

    @Test("a chunk that ends one epoch and begins the next gives the next its own stamp")
    func sharedChunk() {
        let gga2 = String(epoch2.prefix { $0 != "\n" }) + "\n"
        let rest2 = String(epoch2.dropFirst(gga2.count))
        let times = receptionTimes([
            (epoch0, Self.stamp(100)),
            (epoch1 + gga2, Self.stamp(200)),
            (rest2, Self.stamp(300)),
        ])
        #expect(times == [Self.stamp(100), Self.stamp(200), Self.stamp(200)])
    }

    @Test("once the cycle's last sentence is learned, an epoch that begins with a sentence bearing no fix (GSV) takes that sentence's stamp")
    func leadingSatellites() {
        let gsv = SyntheticEpochs.sentence("GPGSV,1,1,01,05,45,120,40")
        let epoch3 = String(decoding: SyntheticEpochs.epoch(3), as: UTF8.self)
        let times = receptionTimes([
            (gsv, Self.stamp(100)), (epoch0, Self.stamp(150)),
            (gsv, Self.stamp(200)), (epoch1, Self.stamp(250)),
            (gsv, Self.stamp(300)), (epoch2, Self.stamp(350)),
            (gsv, Self.stamp(400)), (epoch3, Self.stamp(450)),
        ])
        #expect(times.first == Self.stamp(100))
        // The first two epochs teach where a cycle ends (at RMC); from then on, a GSV after
        // an RMC is the next epoch's first sentence.
        #expect(times.suffix(2) == [Self.stamp(300), Self.stamp(400)])
    }

    @Test("bytes fed without a stamp give fixes without one")
    func unstamped() {
        #expect(receptionTimes([(epoch0 + epoch1, nil)]) == [nil, nil])
    }
}
