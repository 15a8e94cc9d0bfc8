import Platform

/// Runs connect and disconnect operations one at a time, in the order they were queued,
/// without holding any lock while they run.
///
/// Queueing is cheap and runs no user code, so it happens inside the critical section that
/// decides the operation: the order of the queue is the order of the decisions. Running
/// happens afterwards, outside every lock: ``complete(through:)`` drains the queue on the
/// calling thread when nobody else is, or waits for the thread that is. An operation may queue
/// another one from inside (a handler disposing during a connect): that one runs right after
/// it, and the nested ``complete(through:)`` returns at once, since waiting there would wait on
/// itself. So an upstream is never subscribed while its previous subscription is still being
/// disposed, and when `connect` or the last `dispose` returns, the upstream is open or closed.
@usableFromInline
final class ConnectDisconnectQueue: @unchecked Sendable {
    /// The place of an operation in the queue.
    @usableFromInline typealias Ticket = Int

    private let lock = Lock()
    private let condition: Condition
    // Guarded by `lock`.
    private var queue: [@Sendable () -> Void] = []
    private var nextTicket: Ticket = 0
    private var completed: Ticket = 0
    private var runner: UInt?

    @usableFromInline
    init() { condition = Condition(lock) }

    /// Queues `operation` without running it; safe to call with other locks held.
    @usableFromInline
    func enqueue(_ operation: @escaping @Sendable () -> Void) -> Ticket {
        lock.lock()
        defer { lock.unlock() }
        queue.append(operation)
        nextTicket += 1
        return nextTicket - 1
    }

    /// Returns once the operation of `ticket`, and every one before it, has run: runs them on
    /// this thread when no other thread is running the queue. Call it with no lock held.
    ///
    /// With `wait` false, returns at once when another thread is running the queue (that
    /// thread runs `ticket` too): for callers that must not block, such as an upstream's own
    /// terminal event.
    @usableFromInline
    func complete(through ticket: Ticket, wait: Bool = true) {
        lock.lock()
        defer { lock.unlock() }
        while completed <= ticket {
            if let runner {
                // Nested call from inside an operation: it runs after the current one.
                if !wait || runner == CurrentThread.identity { return }
                condition.wait()
                continue
            }
            runner = CurrentThread.identity
            while !queue.isEmpty {
                let operation = queue.removeFirst()
                lock.unlock()
                operation()
                lock.lock()
                completed += 1
                condition.broadcast()
            }
            runner = nil
            condition.broadcast()
        }
    }
}
