import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock over a heap-allocated `pthread_mutex_t`.
///
/// Every piece of shared state in `Signals` is guarded by one of these. The mutex lives at a
/// stable heap address (never inside a Swift value that could move), and ThreadSanitizer sees
/// it, so a sanitizer run checks the state it guards. A recursive lock lets the thread that
/// holds it take it again: subjects deliver events under one, so that a handler may send to
/// the subject it is observing.
@usableFromInline
package final class Lock: @unchecked Sendable {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline
    let recursive: Bool
    // A recursive lock counts its holds itself, over a plain mutex, which costs less per
    // lock and unlock than glibc's recursive one, on the path every event takes. Only the
    // holder stores its own identity in `owner`, so a thread finds its identity there only
    // while it holds the lock.
    @usableFromInline
    let owner = Atomic<UInt>(0)
    @exclusivity(unchecked) @usableFromInline
    var holds = 0

    /// Creates a lock; `recursive` lets its holder lock it again (and unlock as many times).
    @usableFromInline package init(recursive: Bool = false) {
        self.recursive = recursive
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        // A plain lock checks its use: locking it again from the holder fails loudly (the
        // precondition below) rather than deadlocking.
        pthread_mutexattr_settype(&attributes, Int32(recursive ? PTHREAD_MUTEX_NORMAL : PTHREAD_MUTEX_ERRORCHECK))
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it if another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
        guard recursive else {
            let result = pthread_mutex_lock(mutex)
            return precondition(result == 0, "pthread_mutex_lock failed: \(result)")
        }
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        if owner.load(ordering: .relaxed) != me {
            pthread_mutex_lock(mutex)
            owner.store(me, ordering: .relaxed)
        }
        holds += 1
    }

    /// Takes the lock if it is free (or held by this thread, for a recursive lock) and tells
    /// whether it did; never waits.
    @inlinable
    package func tryLock() -> Bool {
        guard recursive else { return pthread_mutex_trylock(mutex) == 0 }
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        if owner.load(ordering: .relaxed) != me {
            guard pthread_mutex_trylock(mutex) == 0 else { return false }
            owner.store(me, ordering: .relaxed)
        }
        holds += 1
        return true
    }

    /// Releases the lock; the calling thread must hold it.
    @inlinable @inline(__always)
    package func unlock() {
        guard recursive else {
            let result = pthread_mutex_unlock(mutex)
            return precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
        }
        precondition(holds > 0, "unlock of a lock that is not held")
        holds -= 1
        if holds == 0 {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Runs `body` with the lock held.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by its own ``Lock``: the state of a class that threads share.
@usableFromInline
package final class Protected<State>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline var state: State

    /// Creates the guard around `state`.
    @usableFromInline
    package init(_ state: State) { self.state = state }

    /// Runs `body` on the state with the lock held. Never call out to user code from `body`.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// The calling thread, as far as a sender that might wait needs to know.
package enum CurrentThread {
    /// A number that tells it from every other thread running now.
    package static var identity: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Whether it is the process's main thread, where the main actor runs.
    /// A system call: ask it only when the answer matters.
    package static var isMain: Bool {
        #if canImport(Darwin)
        return pthread_main_np() != 0
        #else
        // "PID/task/TID": the main thread's TID is the process's ID. (Swift's Glibc does not
        // declare gettid.)
        var link = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &link, link.count - 1)
        guard length > 0 else { return false }
        let parts = String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "/")
        return parts.count == 3 && parts[0] == parts[2]
        #endif
    }
}

/// A condition variable over a plain (not recursive) ``Lock``: a thread holding the lock waits
/// until another one, having changed the state the lock guards, broadcasts.
package final class Condition: @unchecked Sendable {
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let lock: Lock

    /// Creates a condition over `lock`, which must not be recursive.
    package init(_ lock: Lock) {
        precondition(!lock.recursive, "a condition needs a plain lock")
        self.lock = lock
        condition = .allocate(capacity: 1)
        // Timed waits count on the monotonic clock, which a change of the wall clock leaves be.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Releases the lock, waits for a broadcast and takes the lock again. The caller holds the
    /// lock, and checks its state again after (a wait may end without a broadcast).
    package func wait() {
        pthread_cond_wait(condition, lock.mutex)
    }

    /// As ``wait()``, for at most `seconds`: `false` when they passed with no broadcast.
    package func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = seconds.rounded(.down)
        deadline.tv_sec += Int(whole)
        deadline.tv_nsec += Int((seconds - whole) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, lock.mutex, &deadline) == 0
    }

    /// Wakes every thread waiting; the caller holds the lock.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Wakes one thread waiting, if any; the caller holds the lock.
    package func signal() {
        pthread_cond_signal(condition)
    }
}
