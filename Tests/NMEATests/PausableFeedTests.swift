import Testing
import TestSupport
@testable import NMEA

/// A reader whose subscribers are full stops the decoder mid-chunk and feeds the rest later:
/// the stream must come out as if it had never stopped.
@Suite("Feeding stopped and resumed", .mayBlock)
struct PausableFeedTests {
    /// Each event as text, in order: sentences, epochs (views and fix), UBX frames, rejects.
    private static func describe(_ event: NMEADecoder.Event) -> String {
        switch event {
        case .sentence(let raw): "S \(raw.text)"
        case .epoch(let epoch): "E \(epoch.views.count) \(String(describing: epoch.fix))"
        case .ubx(let frame): "U \(frame.bytes)"
        case .rejected(let reject): "R \(reject.reason) \(reject.byteCount)"
        }
    }

    /// The whole input in one chunk, stopped after event `stopAfter` (counting from 1) of each
    /// feed and fed its rest again until it is all taken; then finished.
    private static func decode(_ bytes: [UInt8], stoppingAfter stopAfter: Int?) -> (events: [String], stops: Int) {
        let decoder = NMEADecoder()
        var events: [String] = []
        var stops = 0
        var rest = bytes
        while !rest.isEmpty {
            var seen = 0
            let taken = rest.withUnsafeBytes { chunk in
                decoder.feedPausable(chunk, receivedAt: nil) { event in
                    events.append(describe(event))
                    seen += 1
                    if seen == stopAfter { decoder.stopFeeding() }
                }
            }
            #expect(taken > 0 || rest.isEmpty, "a feed stopped after its first event takes that event's bytes")
            if taken < rest.count { stops += 1 }
            rest.removeFirst(taken)
        }
        decoder.finish { events.append(describe($0)) }
        #expect(decoder.statistics.bytes == bytes.count, "every byte counted once")
        return (events, stops)
    }

    @Test("stopped after any event and fed the rest, the decoder gives exactly what one feed gives", arguments: ["sirf-cycle.nmea", "ublox-multi.nmea", "hostile.bin"])
    func stoppedAnywhere(name: String) throws {
        let bytes = try fixture(name)
        let whole = Self.decode(bytes, stoppingAfter: nil)
        #expect(whole.stops == 0)
        #expect(whole.events.count > 20)
        for stopAfter in [1, 2, 3, 5, 8, 13, 21] {
            let stopped = Self.decode(bytes, stoppingAfter: stopAfter)
            #expect(stopped.stops > 0, "stopping after \(stopAfter) stopped")
            #expect(stopped.events == whole.events, "stopping after every \(stopAfter) events")
        }
    }

    @Test("a plain feed is never stopped: stopFeeding counts only for feedPausable")
    func plainFeedIgnoresStop() throws {
        let bytes = try fixture("sirf-cycle.nmea")
        let decoder = NMEADecoder()
        var count = 0
        bytes.withUnsafeBytes { chunk in
            decoder.feed(chunk) { _ in
                count += 1
                decoder.stopFeeding()
            }
        }
        decoder.finish { _ in count += 1 }
        #expect(count == Self.decode(bytes, stoppingAfter: nil).events.count)
    }
}
