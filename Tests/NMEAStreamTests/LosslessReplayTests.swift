import Foundation
import Testing
import TestSupport
@testable import NMEAStream

/// A recorded log through every way of consuming it gives every fix the decoder gives (what
/// `nmeastream replay` prints), in order, every run: the shared signals wait for their slowest
/// subscriber when the source is a log.
@Suite("Lossless replay", .mayBlock, .enabled(if: Corpus.isAvailable, "../shared/corpus is absent"))
struct LosslessReplayTests {
    /// Each corpus log and the fixes the decoder alone makes of it.
    static let logs: [(path: String, fixes: [Fix])] = {
        guard Corpus.isAvailable, let urls = try? Corpus.logs(in: "gpsd-nmea") else { return [] }
        return urls.map { url in (url.path, Fixtures.expectedFixes((try? Data(contentsOf: url)).map(Array.init) ?? [])) }
    }()

    @Test("for try await over values: every fix, 20 runs in a row")
    func values() async throws {
        #expect(Self.logs.count > 60)
        for run in 0..<20 {
            for log in Self.logs {
                var received: [Fix] = []
                for try await fix in GPSMonitor(source: .log(path: log.path)).fixes.values { received.append(fix) }
                #expect(received == log.fixes, "run \(run): \(log.path): \(received.count) of \(log.fixes.count) fixes")
            }
        }
    }

    @Test("observe with one subscriber: every fix, then completed, 20 runs in a row")
    func observeOne() throws {
        for run in 0..<20 {
            for log in Self.logs {
                let recorder = SignalRecorder<Fix>()
                let subscription = recorder.observe(GPSMonitor(source: .log(path: log.path)).fixes)
                #expect(recorder.wait { recorder.ended })
                #expect(recorder.completed)
                #expect(recorder.values == log.fixes, "run \(run): \(log.path): \(recorder.values.count) of \(log.fixes.count) fixes")
                subscription.dispose()
            }
        }
    }

    @Test("a hundred subscribers of one monitor, connected once all are there: every one gets every fix")
    func observeHundred() throws {
        for log in Self.logs {
            let gps = GPSMonitor(source: .log(path: log.path), opening: .onConnect)
            let recorders = (0..<100).map { _ in SignalRecorder<Fix>() }
            // Half of them slow, so that the reader has to wait for them.
            let subscriptions = recorders.enumerated().map { index, recorder in
                recorder.observe(gps.fixes) { _ in if index % 2 == 0 { usleep(10) } }
            }
            let connection = gps.connect()
            #expect(recorders.allSatisfy { recorder in recorder.wait(seconds: 60) { recorder.ended } })
            let short = recorders.filter { $0.values != log.fixes }
            #expect(short.isEmpty, "\(log.path): \(short.count) subscribers short, e.g. \(short.first?.values.count ?? 0) of \(log.fixes.count)")
            #expect(gps.dropped.count == 0)
            subscriptions.forEach { $0.dispose() }
            connection.dispose()
        }
    }

    @Test("a reader's delegate: every fix, 20 runs in a row")
    func delegate() throws {
        for run in 0..<20 {
            for log in Self.logs {
                let reader = NMEAReader(source: .log(path: log.path))
                let recorder = ReaderRecorder()
                reader.delegate = recorder
                reader.start()
                #expect(recorder.waitForEnd())
                #expect(recorder.fixes == log.fixes, "run \(run): \(log.path)")
                reader.stop()
            }
        }
    }
}
