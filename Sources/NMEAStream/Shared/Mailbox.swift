import Dispatch
import Signals

/// Hands one subscriber its events on a serial queue of its own, so that a slow subscriber
/// holds up neither the reader nor the other subscribers.
///
/// At most `capacity` values wait; when another arrives, the oldest waiting one is dropped, so
/// a subscriber that falls behind gets the newest values and memory stays bounded. The
/// terminal event is never dropped and comes after every value still waiting.
final class Mailbox<Value: Sendable>: @unchecked Sendable {
    private struct State {
        var waiting: [Value] = []
        var terminal: Event<Value, GPSError>?
        var isDraining = false
        var isClosed = false
        /// The serial of the last fix taken in: an older or equal one is a stale replay.
        var lastSerial = 0
    }

    private let observer: Observer<Value, GPSError>
    private let capacity: Int
    private let queue: DispatchQueue
    private let state = Protected(State())

    init(observer: Observer<Value, GPSError>, capacity: Int, label: String) {
        self.observer = observer
        self.capacity = max(1, capacity)
        queue = DispatchQueue(label: label)
    }

    /// Takes in a value; `serial` (when given) must be newer than the last one taken in.
    func post(_ value: Value, serial: Int? = nil) {
        let start = state.withLock { state -> Bool in
            guard !state.isClosed, state.terminal == nil else { return false }
            if let serial {
                guard serial > state.lastSerial else { return false }
                state.lastSerial = serial
            }
            if state.waiting.count == capacity {
                state.waiting.removeFirst()
            }
            state.waiting.append(value)
            return claimDrain(&state)
        }
        if start { queue.async { self.drain() } }
    }

    /// Takes in the end of the stream.
    func post(terminal event: Event<Value, GPSError>) {
        let start = state.withLock { state -> Bool in
            guard !state.isClosed, state.terminal == nil else { return false }
            state.terminal = event
            return claimDrain(&state)
        }
        if start { queue.async { self.drain() } }
    }

    /// Stops delivery: nothing more reaches the observer.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.waiting.removeAll()
        }
    }

    private func claimDrain(_ state: inout State) -> Bool {
        guard !state.isDraining else { return false }
        state.isDraining = true
        return true
    }

    // One value at a time: what waits while a value is being handled stays in the mailbox,
    // where newer values can still push it out.
    private func drain() {
        while true {
            let next = state.withLock { state -> Event<Value, GPSError>? in
                if !state.isClosed {
                    if !state.waiting.isEmpty { return .next(state.waiting.removeFirst()) }
                    if let terminal = state.terminal {
                        state.isClosed = true
                        return terminal
                    }
                }
                state.isDraining = false
                return nil
            }
            guard let next else { return }
            observer.send(next)
        }
    }
}
