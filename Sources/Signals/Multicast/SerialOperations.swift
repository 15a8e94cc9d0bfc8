#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs connect and disconnect operations one at a time, in the order they were decided,
/// without holding any lock while they run, and returns once the caller's operation has run.
///
/// The thread that finds the queue idle runs it until it is empty; a thread that finds it busy
/// waits until its own operation has been run. An operation may start another one from inside
/// (a handler disposing during a connect): that one is queued behind it and the nested call
/// returns at once, since waiting there would wait on itself. So an upstream is never
/// subscribed while the previous subscription is still being disposed, and when `connect` or
/// the last `dispose` returns, the upstream is open or closed.
final class SerialOperations: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var queue: [(ticket: Int, operation: @Sendable () -> Void)] = []
    private var nextTicket = 0
    private var completed = 0
    private var runner: pthread_t?

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Queues `operation` and returns after it has run (at once when called from inside an
    /// operation of this queue).
    func run(_ operation: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        let ticket = nextTicket
        nextTicket += 1
        queue.append((ticket, operation))
        if let runner {
            if pthread_equal(runner, pthread_self()) != 0 {
                pthread_mutex_unlock(mutex)
                return
            }
            while completed <= ticket, self.runner != nil { pthread_cond_wait(condition, mutex) }
            if completed > ticket {
                pthread_mutex_unlock(mutex)
                return
            }
        }
        // The queue is idle: this thread runs it, its own operation included.
        runner = pthread_self()
        while !queue.isEmpty {
            let next = queue.removeFirst()
            pthread_mutex_unlock(mutex)
            next.operation()
            pthread_mutex_lock(mutex)
            completed = next.ticket + 1
            pthread_cond_broadcast(condition)
        }
        runner = nil
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
