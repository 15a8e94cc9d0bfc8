import Dispatch
import NMEA
import Signals
import Synchronization
import Platform

/// The observer half of the `monitorLocations` pattern: the reader's events become the
/// signal's, each kind only while someone wants it.
///
/// The events of one chunk are sent together when the reader has finished it: a subscriber's
/// queue then wakes once for a burst rather than once per epoch (each wake-up costs more than
/// an epoch to deliver). A device's chunk is what it sent in one go, so nothing waits longer
/// than the read it came in.
final class EventForwarder: @unchecked Sendable {
    private let observer: Observer<GPSEvent, GPSError>
    private let connection: MonitorConnection
    /// The integrity checks, when the monitor runs them.
    private var integrity: IntegrityCheck?
    /// The chunk's events, in order. Touched only on the reader's queue (the reader calls
    /// ``take(_:)`` there and nowhere else): hence `@unchecked Sendable`. A lock here, never
    /// contended, cost about 2% of the monitor's pipeline stage with one subscriber (two lock
    /// operations per epoch).
    private var pending: [GPSEvent] = []

    init(observer: Observer<GPSEvent, GPSError>, connection: MonitorConnection, integrity: IntegrityCheck?) {
        self.observer = observer
        self.connection = connection
        self.integrity = integrity
    }

    /// At most this many events wait for the end of a chunk (a chunk of bytes in memory is
    /// all of them).
    private static let batch = 256

    func take(_ event: NMEAReader.Event) {
        switch event {
        case .decoded(.epoch(var epoch)):
            if integrity != nil {
                for event in integrity!.check(&epoch) { add(.integrity(event)) }
            }
            add(.epoch(epoch))
        case .decoded(.sentence(let sentence)):
            if connection.wants(.sentences) { add(.sentence(ReceivedSentence(sentence))) }
        case .decoded(.rejected(let reject)):
            if connection.wants(.rejects) { add(.rejected(reject)) }
        case .decoded(.ubx):
            // Counted in the reader's statistics; its bytes reach `.bytes` subscribers.
            break
        case .read(let bytes):
            if connection.wants(.bytes) { add(.bytes(Array(bytes))) }
        case .lostConnection(let interruption):
            flush()
            connection.networkConnections.on(.next(.interrupted(interruption)))
        case .connected(let endpoint): connection.networkConnections.on(.next(.connected(endpoint: endpoint)))
        case .lostDevice, .finishedChunk: flush()
        case .failed(let error):
            flush(evenHeld: true)
            observer.on(.failed(error))
        case .finished:
            flush(evenHeld: true)
            observer.on(.completed)
        case .foundSpeed(let speed): connection.noteSpeed(speed)
        case .choseDevice, .quiet: break
        }
    }

    private func add(_ event: GPSEvent) {
        pending.append(event)
        if pending.count >= Self.batch { flush() }
    }

    /// Sends what waits, until a subscriber's full buffer holds the reader
    /// (``MonitorConnection/isHeld``): the rest then waits here, first in line, for ``resume()``.
    /// Before the end of the stream everything goes, `evenHeld`: nothing is lost.
    private func flush(evenHeld: Bool = false) {
        guard !pending.isEmpty, evenHeld || !connection.isHeld else { return }
        var events: [GPSEvent] = []
        swap(&events, &pending)
        var sent = 0
        for event in events {
            observer.on(.next(event))
            sent += 1
            if !evenHeld, connection.isHeld { break }
        }
        if sent < events.count {
            // Held: what was not sent goes before anything added meanwhile.
            pending = Array(events[sent...]) + pending
            return
        }
        // The buffer goes back for the next chunk: no allocation per chunk.
        events.removeAll(keepingCapacity: true)
        if pending.isEmpty { swap(&pending, &events) }
    }

    /// The reader goes on after a hold: sends what waited (on the reader's executor).
    func resume() { flush() }
}
