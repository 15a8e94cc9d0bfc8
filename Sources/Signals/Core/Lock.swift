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
public final class Lock: @unchecked Sendable {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates a lock; `recursive` lets its holder lock it again (and unlock as many times).
    public init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK))
        let result = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it if another thread holds it.
    @inlinable
    public func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    /// Takes the lock if it is free (or held by this thread, for a recursive lock) and tells
    /// whether it did; never waits.
    @inlinable
    public func tryLock() -> Bool {
        pthread_mutex_trylock(mutex) == 0
    }

    /// Releases the lock; the calling thread must hold it.
    @inlinable
    public func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Runs `body` with the lock held.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by its own ``Lock``: the state of a class that threads share.
public final class Protected<State>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline var state: State

    /// Creates the guard around `state`.
    public init(_ state: State) { self.state = state }

    /// Runs `body` on the state with the lock held. Never call out to user code from `body`.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
