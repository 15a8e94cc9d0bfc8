import Dispatch
import NMEA
import NMEARendering
import Signals
import Platform

/// RTK corrections from an NTRIP caster, written to the receivers attached to it: the one
/// thing nmeastream ever writes to a receiver.
///
/// A receiver is attached while its device is open for a watcher (``GPSMonitor`` attaches its
/// reader for as long as the device is open; `nmeastream read` for as long as it reads), and
/// the feed is connected to its caster while at least one receiver is attached: the first
/// attachment connects it, the last detachment disconnects it. Several receivers share one
/// connection (casters often allow one per account).
///
/// Each checked RTCM 3 frame (``NTRIPClient``) is written to every attached receiver, whole,
/// unchanged and in order; a frame whose checksum failed is counted and never written. A
/// frame that a receiver cannot take (not open yet, still finding its speed, read-only, a
/// line too slow) is dropped whole and counted, and the start of each such spell is told
/// (``CorrectionsEvent/notWritten(receiver:_:)``). Frames cross to each receiver's executor
/// through a ``HandOff`` of ``handOffCapacity``: a caster that sends faster than a busy
/// receiver's executor takes them pushes out the oldest waiting, counted as dropped, and never
/// grows memory.
///
/// With ``Corrections/positionInterval``, the latest position of any attached receiver goes to
/// the caster as GGA at that interval (and as soon as the caster streams): a network mountpoint
/// (VRS) makes its corrections for it.
public final class CorrectionsFeed: Sendable {
    /// The caster, and how it is told the position.
    public let corrections: Corrections
    private let events: @Sendable (CorrectionsEvent) -> Void
    private let state = Protected(State())
    private let queue = DispatchQueue(label: "nmeastream.corrections")
    /// Frames pushed out of a receiver's hand-off.
    private let handOffDrops = DropCounter()
    /// How many frames may wait for one receiver's executor: 32, a second or more of a caster's.
    public static let handOffCapacity = 32
    /// Entered while a connection that is no longer wanted closes: the next one starts after
    /// it, so that a caster that allows one connection per user never sees two.
    private let closing = DispatchGroup()

    private struct State {
        var client: NTRIPClient?
        var positionTimer: DispatchSourceTimer?
        var receivers: [AttachedReceiver] = []
        var status = CorrectionsStatus()
        /// The latest fix with a position, of any receiver.
        var latest: Fix?
        /// Whether the caster streams and has not been told a position on this connection.
        var owesPosition = false
    }

    /// A feed from `corrections`'s caster; `events` is told what happens (return at once).
    /// Nothing connects until a receiver is attached.
    public init(corrections: Corrections, events: @escaping @Sendable (CorrectionsEvent) -> Void = { _ in }) {
        self.corrections = corrections
        self.events = events
    }

    /// What the feed has done so far.
    public var status: CorrectionsStatus {
        var (status, client) = state.withLock { ($0.status, $0.client) }
        status.framesDropped += handOffDrops.count
        guard let counts = client?.counts else { return status }
        var total = status
        total.framesCorrupt += counts.badChecksums
        total.bytesSkipped += counts.bytesSkipped
        return total
    }

    /// Writes the corrections to `reader`'s device until the result is disposed; the first
    /// attachment connects to the caster, disposing the last disconnects. Disposing never
    /// waits for the connection to close (it may run where waiting is not allowed: inside a
    /// shared connection's release); a later attachment connects once it has closed.
    public func attach(_ reader: NMEAReader) -> Disposable {
        let receiver = AttachedReceiver(reader: reader, feed: self, dropped: handOffDrops)
        reader.addDelegate(receiver)
        let client: NTRIPClient? = state.withLock { state in
            state.receivers.append(receiver)
            guard state.client == nil else { return nil }
            let client = NTRIPClient(endpoint: corrections.caster, version: corrections.version,
                                     silenceLimit: corrections.silenceLimit) { [weak self] event in self?.take(event) }
            state.client = client
            state.positionTimer = positionTimer()
            return client
        }
        if let client { closing.notify(queue: queue) { client.start() } }
        return BlockDisposable { [weak self] in
            reader.removeDelegate(receiver)
            receiver.frames?.close()
            self?.detach(receiver)
        }
    }

    private func detach(_ receiver: AttachedReceiver) {
        let ending: (NTRIPClient, DispatchSourceTimer?)? = state.withLock { state in
            state.receivers.removeAll { $0 === receiver }
            guard state.receivers.isEmpty, let client = state.client else { return nil }
            // The connection's counts stay in the status.
            state.status.framesCorrupt += client.counts.badChecksums
            state.status.bytesSkipped += client.counts.bytesSkipped
            state.status.isStreaming = false
            state.client = nil
            state.latest = nil
            defer { state.positionTimer = nil }
            return (client, state.positionTimer)
        }
        guard let (client, timer) = ending else { return }
        timer?.cancel()
        closing.enter()
        DispatchQueue.global().async { [closing] in
            client.stop()
            closing.leave()
        }
    }

    /// Returns once a connection no longer wanted has closed: for a program that ends.
    public func waitUntilClosed() {
        closing.wait()
    }

    // MARK: From the caster, on the client's queue

    private func take(_ event: NTRIPClient.Event) {
        switch event {
        case .streaming(let endpoint):
            state.withLock {
                $0.status.isStreaming = true
                $0.owesPosition = true
            }
            events(.streaming(caster: endpoint))
            sendPosition()
        case .frame(let frame):
            let receivers = state.withLock { $0.receivers }
            for receiver in receivers { receiver.frames?.send(frame) }
            if receivers.isEmpty { state.withLock { $0.status.framesDropped += 1 } }
        case .interrupted(let interruption):
            state.withLock { $0.status.isStreaming = false }
            events(.interrupted(interruption))
        case .refused(let refusal):
            state.withLock { $0.status.isStreaming = false }
            events(.refused(refusal))
        case .sourcetable:
            // Only for an empty mountpoint, which ``Corrections`` does not take.
            break
        }
    }

    /// On the receiver's reader's executor.
    fileprivate func noted(_ outcome: DeviceWriteOutcome, of frame: RTCM3Frame, for receiver: AttachedReceiver) {
        state.withLock { state in
            switch outcome {
            case .written:
                state.status.framesWritten[frame.messageType ?? 0, default: 0] += 1
                state.status.bytesWritten += frame.bytes.count
                state.status.lastWritten = .now
            case .dropped:
                state.status.framesDropped += 1
            }
        }
        let written = outcome == .written
        guard receiver.wasWriting != written else {
            if case .dropped(let refusal) = outcome, refusal != receiver.lastRefusal {
                receiver.lastRefusal = refusal
                events(.notWritten(receiver: receiver.name, refusal))
            }
            return
        }
        receiver.wasWriting = written
        switch outcome {
        case .written:
            receiver.lastRefusal = nil
            events(.writing(receiver: receiver.name))
        case .dropped(let refusal):
            receiver.lastRefusal = refusal
            events(.notWritten(receiver: receiver.name, refusal))
        }
    }

    // MARK: The position upstream

    private func positionTimer() -> DispatchSourceTimer? {
        guard let interval = corrections.positionInterval, interval > .zero else { return nil }
        let nanoseconds = Int(clamping: interval.clampedNanoseconds)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in
            self?.state.withLock { $0.owesPosition = true }
            self?.sendPosition()
        }
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.resume()
        return timer
    }

    /// Sends the latest position if one is owed and known (else it goes with the next fix).
    private func sendPosition() {
        guard corrections.positionInterval.map({ $0 > .zero }) ?? false else { return }
        let sending: (NTRIPClient, String)? = state.withLock { state in
            guard state.owesPosition, state.status.isStreaming, let client = state.client,
                  let fix = state.latest, let sentence = GGA.sentence(for: fix) else { return nil }
            state.owesPosition = false
            state.status.positionsSent += 1
            return (client, sentence)
        }
        guard let (client, sentence) = sending else { return }
        client.send(position: sentence)
    }

    /// A receiver's fix, on its reader's executor.
    fileprivate func update(_ fix: Fix) {
        guard fix.latitude != nil, fix.longitude != nil else { return }
        let owed = state.withLock { state in
            state.latest = fix
            return state.owesPosition
        }
        if owed { sendPosition() }
    }
}

/// An attached reader: its fixes reach the feed; what became of the frames written to it is
/// remembered on its executor.
private final class AttachedReceiver: NMEAReaderDelegate, @unchecked Sendable {
    let reader: NMEAReader
    let name: String
    weak var feed: CorrectionsFeed?
    // Confined to the reader's executor.
    var wasWriting: Bool?
    var lastRefusal: DeviceWriteRefusal?
    /// The frames on their way to the reader's executor, where they are written. Set once, in
    /// the initializer.
    private(set) var frames: HandOff<RTCM3Frame>?

    init(reader: NMEAReader, feed: CorrectionsFeed, dropped: DropCounter) {
        self.reader = reader
        self.feed = feed
        name = reader.source.description
        frames = HandOff(capacity: CorrectionsFeed.handOffCapacity, on: reader.executor, dropped: dropped) {
            [weak self] frame in
            guard let self else { return }
            let outcome = reader.writeToDevice(frame.bytes)
            self.feed?.noted(outcome, of: frame, for: self)
        }
    }

    func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
        feed?.update(fix)
    }
}
