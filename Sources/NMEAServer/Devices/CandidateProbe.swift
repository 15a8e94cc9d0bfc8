import Dispatch
import NMEA
import NMEAStream
import Platform

/// Listens to a port that discovery classes as a ``PortKind/candidate`` (a USB-serial bridge:
/// a GlobalSat BU-353 behind a PL2303, a receiver board behind a CP210x or CH340, or an Arduino
/// behind the same chips), to tell whether a receiver sits behind it: it opens the port as a
/// reader does, finds its speed by listening (or reads at the speed given), and decides once
/// ``validNeeded`` checksum-valid NMEA sentences or UBX frames arrive (a receiver) or none can
/// (not one). Nothing is written to the port. The port is closed before the decision is told,
/// so that the server may open it at once.
final class CandidateProbe: NMEAReaderDelegate, Sendable {
    /// What the probe found.
    enum Outcome: Sendable, Equatable {
        /// A receiver: valid NMEA or UBX at this speed (`nil`: the speed given was not a hunt's).
        case receiver(bitsPerSecond: Int?)
        /// Not a receiver, or not one that could be listened to: why.
        case notAReceiver(String)
    }

    /// Valid sentences or frames that make a receiver (the speed hunt's own proof).
    static let validNeeded = 2
    /// How long a port at a speed given may take to send them, in seconds (a hunt ends on its
    /// own): a receiver sends several sentences a second.
    let patience: Int
    /// Where the patience runs out.
    private let timers: ServerLoops

    let path: String
    private let speed: SerialSpeed
    private let decided: @Sendable (Outcome) -> Void
    private let state = Protected(State())

    private struct State {
        var reader: NMEAReader?
        var found: Int?
        var valid = 0
        var isDone = false
    }

    /// A probe of the port at `path`, at `speed` (``SerialSpeed/automatic``: found by
    /// listening); `decided` is told once, unless the probe is cancelled first.
    init(path: String, speed: SerialSpeed, patience: Int = 10, timers: ServerLoops, decided: @escaping @Sendable (Outcome) -> Void) {
        self.path = path
        self.timers = timers
        self.speed = speed
        self.patience = patience
        self.decided = decided
    }

    /// Opens the port and listens.
    func start() {
        let reader = NMEAReader(source: .serial(path: path, speed: speed))
        reader.delegate = self
        state.withLock { $0.reader = reader }
        reader.start()
        if case .bitsPerSecond(let given) = speed {
            timers.schedule(after: .seconds(patience)) { [weak self, patience] in
                self?.finish(.notAReceiver("no NMEA or UBX within \(patience) s at \(given) bit/s"))
            }
        }
    }

    /// Stops listening (the port went away); nothing is told.
    func cancel() {
        let reader = state.withLock { state -> NMEAReader? in
            state.isDone = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.stop(then: {})
    }

    /// Decides once: closes the port, then tells.
    private func finish(_ outcome: Outcome) {
        let reader = state.withLock { state -> NMEAReader? in
            guard !state.isDone else { return nil }
            state.isDone = true
            defer { state.reader = nil }
            return state.reader
        }
        guard let reader else { return }
        reader.stop { [decided] in decided(outcome) }
    }

    private func heardValid() {
        let outcome = state.withLock { state -> Outcome? in
            state.valid += 1
            guard state.valid >= Self.validNeeded else { return nil }
            let given: Int? = if case .bitsPerSecond(let given) = speed { given } else { nil }
            return .receiver(bitsPerSecond: state.found ?? given)
        }
        if let outcome { finish(outcome) }
    }

    func reader(_ reader: NMEAReader, didFindSpeed bitsPerSecond: Int) {
        state.withLock { $0.found = bitsPerSecond }
    }

    func reader(_ reader: NMEAReader, didReceive sentence: RawSentence) { heardValid() }

    func reader(_ reader: NMEAReader, didReceive frame: UBXFrame) { heardValid() }

    /// Why, without the path (the server's message names it).
    func reader(_ reader: NMEAReader, didFailWith error: GPSError) {
        let said = error.description
        finish(.notAReceiver(said.hasPrefix(path + ": ") ? String(said.dropFirst(path.count + 2)) : said))
    }

    func readerDidFinish(_ reader: NMEAReader) {
        finish(.notAReceiver("it ended"))
    }
}
