import NIOCore
import Platform
import NMEAStream

/// The server's event loops as its parts use them after it started: timers (a device tried
/// again, a candidate's patience, a datagram feed subscribed again), and work put on a loop
/// from elsewhere (a device's read channel closed from the reader's queue), none of it
/// outliving the loops.
///
/// ``stopTimers()`` comes as the server starts to stop: the timers that wait are cancelled,
/// and one asked for later is dropped. ``shutDown()`` comes right before the loops shut down:
/// it waits for work being put on a loop to be there, and from then on ``whileRunning(_:)``
/// runs nothing. So nothing is put on a loop that has shut down, which
/// SwiftNIO reports ("Cannot schedule tasks on an EventLoop that has already shut down") and
/// means to make a crash.
final class ServerLoops: EventLoopLifetime, @unchecked Sendable {
    private struct State {
        var timersStopped = false
        var isShutDown = false
        var nextID = 0
        var waiting: [Int: Scheduled<Void>] = [:]
        /// Calls of ``whileRunning(_:)`` under way.
        var entered = 0
    }

    private let loop: any EventLoop
    // `state` is guarded by `lock`; `left` is its condition, for shutDown to wait on. Never
    // held while calling out: a future already complete runs its callback at once.
    private let lock = Lock()
    private let left: Condition
    private var state = State()

    /// Timers on `loop` (one of the server's).
    init(on loop: any EventLoop) {
        self.loop = loop
        left = Condition(lock)
    }

    /// Runs `work` on the loop after `delay`, unless shut down first.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        lock.withLock {
            guard !state.timersStopped else { return }
            let id = state.nextID
            state.nextID += 1
            // Scheduled under the lock: shutDown() then finds it to cancel, or it sees the
            // shutdown and is not scheduled. (scheduleTask only enqueues.) The task takes
            // itself out when it runs.
            state.waiting[id] = loop.scheduleTask(in: .nanoseconds(Int64(delay.clampedNanoseconds))) { [weak self] in
                guard let self, self.lock.withLock({ self.state.waiting.removeValue(forKey: id) != nil }) else { return }
                work()
            }
        }
    }

    /// Runs `body`, which puts work on one of the loops, if they still run: whether it ran.
    /// ``shutDown()`` waits for a `body` under way.
    @discardableResult
    func whileRunning(_ body: () -> Void) -> Bool {
        let running = lock.withLock {
            if state.isShutDown { return false }
            state.entered += 1
            return true
        }
        guard running else { return false }
        body()
        lock.withLock {
            state.entered -= 1
            if state.entered == 0 { left.broadcast() }
        }
        return true
    }

    /// Cancels every waiting timer and drops those asked for later (as the server starts to
    /// stop: no device tried again while its devices close).
    func stopTimers() {
        let waiting = lock.withLock {
            state.timersStopped = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for task in waiting { task.cancel() }
    }

    /// ``stopTimers()``, then returns once no ``whileRunning(_:)`` is under way and none will
    /// run again: the loops may shut down.
    func shutDown() {
        stopTimers()
        lock.lock()
        state.isShutDown = true
        while state.entered > 0 { left.wait() }
        lock.unlock()
    }

    /// How many timers wait.
    var waitingCount: Int { lock.withLock { state.waiting.count } }
}
