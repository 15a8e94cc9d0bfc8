import Foundation
import TestSupport
import Testing
@testable import NMEAStream

/// A main-actor model fed by a monitor: the handlers run on the main actor (checked at run
/// time), and the compiler lets them touch its state with no hop of their own.
@MainActor
final class PositionModel {
    var positions: [String] = []
    var ended = false {
        didSet { if ended { endWaiters.forEach { $0.resume() }; endWaiters = [] } }
    }
    private var endWaiters: [CheckedContinuation<Void, Never>] = []

    /// Returns once the stream ended (at once when it has).
    func waitForEnd() async {
        if ended { return }
        await withCheckedContinuation { endWaiters.append($0) }
    }

    func watch(_ gps: GPSMonitor) -> Disposable {
        gps.fixes.observeOnMainActor(
            next: { [weak self] fix in
                self?.check()
                self?.positions.append("\(fix.latitude ?? .nan) \(fix.longitude ?? .nan)")
            },
            failed: { [weak self] _ in self?.ended = true },
            completed: { [weak self] in
                self?.check()
                self?.ended = true
            })
    }

    /// Traps when not on the main actor: the run-time check behind the compiler's.
    private func check() {
        MainActor.assertIsolated("observeOnMainActor's handlers run on the main actor")
    }
}

@Suite("Main-actor delivery", .mayBlock)
struct MainActorDeliveryTests {
    @Test("observeOnMainActor: every fix of a log, on the main actor, in order")
    @MainActor
    func mainActorModel() async throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes).map { "\($0.latitude ?? .nan) \($0.longitude ?? .nan)" }
        let model = PositionModel()
        let subscription = model.watch(GPSMonitor(source: .bytes(bytes)))
        await model.waitForEnd()
        #expect(model.ended)
        #expect(model.positions == expected)
        subscription.dispose()
    }

    @Test("nothing reaches the main actor after dispose")
    @MainActor
    func disposeStops() async throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let model = PositionModel()
        let subscription = model.watch(GPSMonitor(source: .bytes(bytes)))
        subscription.dispose()
        let count = model.positions.count
        try await Task.sleep(for: .milliseconds(200))
        #expect(model.positions.count == count)
    }
}

/// The README's delegate example as printed (compiled, not run: it reads a device and exits).
private enum ReadmeDelegateExample {
    final class Tracker: NMEAReaderDelegate {
        func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
            print(fix.timeOfDay?.description ?? "-", fix.latitude ?? .nan, fix.longitude ?? .nan, fix.mode)
        }
        func reader(_ reader: NMEAReader, didFailWith error: GPSError) {
            print(error)                   // says what happened
            exit(1)
        }
        func readerDidFinish(_ reader: NMEAReader) { exit(0) }
    }

    static func main() -> Never {
        let tracker = Tracker()
        let reader = NMEAReader(source: .serial(path: "/dev/ttyACM0", speed: 9600), queue: .main)
        reader.delegate = tracker              // weak; addDelegate(_:) adds more listeners
        reader.start()
        dispatchMain()
    }
}
