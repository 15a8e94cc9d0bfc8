import NIOCore
import Platform

/// The server's timers (a device tried again, a candidate's patience, a datagram feed
/// subscribed again), on one of its event loops, and none outliving it.
///
/// ``shutDown()`` cancels what waits, and from then on a timer asked for is dropped: work
/// that ends as the server stops (a device closed by the stop, which would be tried again)
/// never schedules on a loop that has shut down, which SwiftNIO reports and means to make a
/// crash.
final class ServerTimers: Sendable {
    private struct State {
        var isShutDown = false
        var nextID = 0
        var waiting: [Int: Scheduled<Void>] = [:]
    }

    private let loop: any EventLoop
    private let state = Protected(State())

    /// Timers on `loop`.
    init(on loop: any EventLoop) { self.loop = loop }

    /// Runs `work` on the loop after `delay`, unless the timers are shut down first.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.isShutDown else { return }
            let id = state.nextID
            state.nextID += 1
            // Scheduled under the lock: shutDown() then finds it to cancel, or it sees the
            // shutdown and is not scheduled. The task takes itself out when it runs.
            state.waiting[id] = loop.scheduleTask(in: .nanoseconds(Int64(delay.clampedNanoseconds))) { [weak self] in
                guard let self, self.state.withLock({ $0.waiting.removeValue(forKey: id) != nil }) else { return }
                work()
            }
        }
    }

    /// Cancels every waiting timer, and drops those asked for later.
    func shutDown() {
        let waiting = state.withLock { state in
            state.isShutDown = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for task in waiting { task.cancel() }
    }

    /// How many timers wait.
    var waitingCount: Int { state.withLock { $0.waiting.count } }
}
