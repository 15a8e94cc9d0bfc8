import Dispatch
import NMEA
import Signals
import Synchronization
import Platform

/// What the shared connection knows beyond its events: which kinds of event anyone wants
/// (fixes always), and the reader now open.
final class MonitorConnection: Sendable {
    /// A kind of event sent only while it has subscribers.
    enum Kind { case sentences, rejects, bytes }

    // The subscriber count of each kind: read for every event, so atomics, not a lock.
    private let sentences = Atomic<Int>(0)
    private let rejects = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    private let readerNow: Protected<WeakReader>
    private struct WeakReader {
        weak var reader: NMEAReader?
    }

    /// Holds the reader paused while a subscriber's lossless buffer is full (a recorded log's
    /// subscribers: see ``GPSMonitor``), instead of making the reader's thread wait.
    let pause: SenderPause

    init() {
        let readerNow = Protected(WeakReader())
        self.readerNow = readerNow
        pause = SenderPause { paused in readerNow.withLock { $0.reader }?.pauseChanged(paused) }
    }

    /// Whether a subscriber's full buffer holds the reader now: the events not yet sent wait.
    /// Read for each event the forwarder sends (no lock).
    var isHeld: Bool { pause.isPaused }
    /// A network source's connections made and lost.
    let networkConnections = Subject<NetworkConnectionEvent, Never>()

    func connect(_ reader: NMEAReader) {
        readerNow.withLock { $0.reader = reader }
        pause.tellState { paused in if paused { reader.pauseChanged(true) } }
        foundSpeed.store(0, ordering: .relaxed)
    }

    /// The speed the open device is read at, bits per second (0 before it is known).
    private let foundSpeed = Atomic<Int>(0)

    /// Notes the speed the reader found, or was given.
    func noteSpeed(_ bitsPerSecond: Int) { foundSpeed.store(bitsPerSecond, ordering: .relaxed) }

    /// The speed the open device is read at; `nil` before it is known.
    var speed: Int? {
        let speed = foundSpeed.load(ordering: .relaxed)
        return speed > 0 ? speed : nil
    }

    /// Entered while a reader stopped releases its device: the next reader opens after.
    let releases = DispatchGroup()

    /// Stops `reader` without waiting; its release is tracked in ``releases``.
    func release(_ reader: NMEAReader) {
        releases.enter()
        reader.stop { [releases] in releases.leave() }
    }

    /// Returns once every reader stopped has released its device, unless the caller runs
    /// receivers' work (``ReceiverWaiting``): there the next open waits for the release instead.
    func waitForRelease() {
        guard ReceiverWaiting.mayWait else { return }
        releases.wait()
    }

    /// The reader of the connection now open, while it exists (for the tests of its lifetime).
    var reader: NMEAReader? { readerNow.withLock { $0.reader } }

    func wants(_ kind: Kind) -> Bool { withCount(kind) { $0.load(ordering: .relaxed) != 0 } }
    func subscribe(_ kind: Kind) { withCount(kind) { _ = $0.add(1, ordering: .relaxed) } }
    func unsubscribe(_ kind: Kind) { withCount(kind) { _ = $0.subtract(1, ordering: .relaxed) } }

    private func withCount<Result>(_ kind: Kind, _ body: (borrowing Atomic<Int>) -> Result) -> Result {
        switch kind {
        case .sentences: body(sentences)
        case .rejects: body(rejects)
        case .bytes: body(bytes)
        }
    }
}
