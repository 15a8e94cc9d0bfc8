import Dispatch
import NMEA
import Signals
import Synchronization

/// A source's fixes, satellite views, sentences and rejects as signals that share one reader.
///
/// Built the way ReactiveCocoa's `monitorLocations` is: a cold `Signal { observer in ... }`
/// creates an ``NMEAReader``, attaches a delegate that turns fixes into `next`, a failure into
/// `error` and the end of the stream into `completed`, starts it, and returns a disposable that
/// stops the reader and closes the device. That signal is shared with reference counting: the
/// device opens for the first subscriber of any of the four signals, stays open once for all
/// of them, and closes when the last one disposes; a later subscriber opens it again.
///
/// ```swift
/// let gps = GPSMonitor(source: .serial(path: "/dev/ttyACM0", speed: 9600))
/// let subscription = gps.fixes.observe(next: { fix in print(fix.latitude ?? .nan) })
/// // ...
/// subscription.dispose()     // the last subscriber: the device closes before this returns
/// ```
///
/// ## Delivery
/// Each subscriber is called on a serial queue of its own, in order. A subscriber that is
/// slow holds up neither the reader nor the others: while it is busy, up to ``backlog``
/// values wait for it (per subscriber), and past that the oldest waiting value is dropped, so
/// that a subscriber that has fallen behind skips ahead to the newest values and memory stays
/// bounded. The end of the stream, or its failure, is never dropped.
///
/// A subscriber that joins while the device is open first receives the latest fix of that
/// connection (not one from before a reconnect), then the live ones.
public final class GPSMonitor: Sendable {
    /// What the monitor reads.
    public let source: GPSSource
    /// How many values may wait for one busy subscriber before the oldest is dropped.
    public let backlog: Int
    private let events: Signal<GPSEvent, GPSError>
    private let connection: ConnectionState

    /// The reader of the connection now open, if any (for the tests of its lifetime).
    var currentReader: NMEAReader? { connection.reader }

    /// Creates a monitor of `source`. Nothing is opened until something subscribes.
    ///
    /// - Parameter backlog: how many values may wait for a busy subscriber (at least 1); the
    ///   default, 256, is over four minutes of fixes at 1 Hz.
    public init(source: GPSSource, backlog: Int = 256) {
        let connection = ConnectionState()
        self.source = source
        self.backlog = max(1, backlog)
        self.connection = connection
        events = Signal<GPSEvent, GPSError> { observer in
            let reader = NMEAReader(source: source)
            let proxy = SignalDelegate(observer: observer, connection: connection)
            connection.connect(reader)
            reader.delegate = proxy
            reader.start()
            let disposable = CompoundDisposable()
            // Stops the reader and closes the device: returns once it is closed (or at once
            // on the reader's queue). The delegate proxy lives as long as the reader runs.
            disposable += ActionDisposable {
                reader.stop()
                withExtendedLifetime(proxy) {}
            }
            disposable += ActionDisposable { connection.disconnect() }
            return disposable
        }.share()
    }

    /// Completed epochs.
    public var fixes: Signal<Fix, GPSError> {
        subscription(label: "fixes") { event, mailbox in
            if case .fix(let fix, let serial) = event { mailbox.post(fix, serial: serial) }
        }
    }

    /// Completed satellite views, one per constellation and signal.
    public var satellites: Signal<SatelliteView, GPSError> {
        subscription(label: "satellites") { event, mailbox in
            if case .satellites(let view) = event { mailbox.post(view) }
        }
    }

    /// Every checksum-valid sentence, copied (only while this signal has subscribers).
    public var sentences: Signal<ReceivedSentence, GPSError> {
        subscription(label: "sentences", wantsSentences: true) { event, mailbox in
            if case .sentence(let sentence) = event { mailbox.post(sentence) }
        }
    }

    /// Input that was rejected, with the reason.
    public var rejects: Signal<RejectedInput, GPSError> {
        subscription(label: "rejects") { event, mailbox in
            if case .rejected(let reject) = event { mailbox.post(reject) }
        }
    }

    private func subscription<Value: Sendable>(
        label: String, wantsSentences: Bool = false,
        _ route: @escaping @Sendable (GPSEvent, Mailbox<Value>) -> Void
    ) -> Signal<Value, GPSError> {
        let events = self.events, connection = self.connection, backlog = self.backlog
        return Signal { observer in
            let mailbox = Mailbox(observer: observer, capacity: backlog, label: "nmeastream.\(label)")
            if wantsSentences { connection.addSentenceSubscriber() }
            let upstream = events.observe { event in
                switch event {
                case .next(let event): route(event, mailbox)
                case .error(let error): mailbox.post(terminal: .error(error))
                case .completed: mailbox.post(terminal: .completed)
                }
            }
            // Subscribed first, then the replay: a live fix newer than the replayed one
            // wins by its serial, whichever reaches the mailbox first.
            if let (fix, serial) = connection.latestFix { route(.fix(fix, serial: serial), mailbox) }
            return ActionDisposable {
                mailbox.close()
                upstream.dispose()
                if wantsSentences { connection.removeSentenceSubscriber() }
            }
        }
    }
}

/// What the shared connection knows beyond its events: the latest fix of the connection now
/// open, and whether anyone wants sentences copied.
final class ConnectionState: Sendable {
    private struct State {
        var latest: (fix: Fix, serial: Int)?
        var serial = 0
    }

    private let state = Protected(State())
    // Read for every sentence: an atomic, not a lock.
    private let sentenceSubscribers = Atomic<Int>(0)

    private let readerNow = Protected(WeakReader())
    private struct WeakReader {
        weak var reader: NMEAReader?
    }

    func connect(_ reader: NMEAReader) {
        state.withLock { $0.latest = nil }
        readerNow.withLock { $0.reader = reader }
    }

    func disconnect() { state.withLock { $0.latest = nil } }

    /// The reader of the connection now open, while it exists (for the tests of its lifetime).
    var reader: NMEAReader? { readerNow.withLock { $0.reader } }

    var latestFix: (Fix, Int)? { state.withLock { $0.latest.map { ($0.fix, $0.serial) } } }
    var wantsSentences: Bool { sentenceSubscribers.load(ordering: .relaxed) > 0 }

    func addSentenceSubscriber() { sentenceSubscribers.add(1, ordering: .relaxed) }
    func removeSentenceSubscriber() { sentenceSubscribers.subtract(1, ordering: .relaxed) }

    /// Records `fix` as the latest and gives its serial number.
    func publish(_ fix: Fix) -> Int {
        state.withLock { state in
            state.serial += 1
            state.latest = (fix, state.serial)
            return state.serial
        }
    }
}

/// The delegate proxy of the `monitorLocations` pattern: reader callbacks become events.
private final class SignalDelegate: NMEAReaderDelegate, Sendable {
    private let observer: Observer<GPSEvent, GPSError>
    private let connection: ConnectionState

    init(observer: Observer<GPSEvent, GPSError>, connection: ConnectionState) {
        self.observer = observer
        self.connection = connection
    }

    func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
        observer.send(.next(.fix(fix, serial: connection.publish(fix))))
    }

    func reader(_ reader: NMEAReader, didUpdate satellites: SatelliteView) {
        observer.send(.next(.satellites(satellites)))
    }

    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) {
        guard connection.wantsSentences else { return }
        observer.send(.next(.sentence(ReceivedSentence(sentence))))
    }

    func reader(_ reader: NMEAReader, didReject input: RejectedInput) {
        observer.send(.next(.rejected(input)))
    }

    func reader(_ reader: NMEAReader, didFailWith error: GPSError) { observer.send(.error(error)) }

    func readerDidFinish(_ reader: NMEAReader) { observer.send(.completed) }
}
