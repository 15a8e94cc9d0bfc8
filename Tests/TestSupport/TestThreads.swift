import Foundation
import Platform
import Testing

/// Threads of their own for tests that block while they wait, and a bound on how many such
/// tests run at once.
///
/// Swift Testing runs every test as a task on Swift's cooperative pool, which has one thread
/// per core (two here). Most of this project's tests block a thread while they wait for the
/// outside: a pseudo-terminal's bytes, a socket's line, a child process's exit. Two of them
/// blocked the whole pool, so the suite ran about two tests at a time, each at the pace of its
/// waits, and async tests queued behind them for minutes. With ``Trait/mayBlock`` a suite's
/// tests run on ``TestThreads`` (a thread for each job that runs, made when none is idle)
/// instead, at most ``TestSlots/width`` tests at once, the others waiting for a slot without a
/// thread. Nothing else about a test changes: it is still in a task, with Swift Testing's
/// isolation and ordering (`.serialized` still serializes).
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// The one pool every suite with ``Trait/mayBlock`` shares.
    public static let shared = TestThreads()

    private let lock = Lock()
    private let ready: Condition
    // Guarded by `lock`.
    private var jobs: [UnownedJob] = []
    private var idle = 0

    private init() { ready = Condition(lock) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let spawn = lock.withLock { () -> Bool in
            jobs.append(job)
            // Every job waiting has an idle thread to take it (one is woken for each job), or
            // a new thread is made: a job never waits for a thread that is blocked in a test.
            guard jobs.count > idle else {
                ready.signal()
                return false
            }
            return true
        }
        if spawn { Thread.detachNewThread { [self] in work() } }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            let job = lock.withLock { () -> UnownedJob in
                while jobs.isEmpty {
                    idle += 1
                    ready.wait()
                    idle -= 1
                }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: executor)
        }
    }
}

/// How many tests run at once on ``TestThreads``: a test beyond them waits, suspended, until
/// one ends.
public final class TestSlots: @unchecked Sendable {
    /// Three tests at once: half as many again as the cooperative pool let run on this
    /// machine's two cores. With six (168 s a run here, against 287 s), a clean-clone CI run
    /// still missed a umockdev script replay's mark (`ListCommandTests`' PL2303 puck), as it
    /// did before `simulate` kept true time; six waits for that test to stop being timed.
    /// The environment's `NMEASTREAM_TEST_SLOTS` sets another: CI's ThreadSanitizer run,
    /// where every test is CPU work many times over, takes 2 (with 6 it ran 2.4 times as long,
    /// and timed tests missed).
    public static let width = ProcessInfo.processInfo.environment["NMEASTREAM_TEST_SLOTS"].flatMap(Int.init).map { max(1, $0) } ?? 3
    /// The slots every suite with ``Trait/mayBlock`` shares.
    public static let shared = TestSlots(width: width)

    private let lock = Lock()
    // Guarded by `lock`.
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { free = width }

    /// Takes a slot, waiting (suspended) for one to be given back if none is free.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                guard free > 0 else {
                    waiting.append(continuation)
                    return false
                }
                free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives a slot back: to the test that waited longest, if one does.
    func giveBack() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !waiting.isEmpty else {
                free += 1
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}

/// Runs each test of a suite on ``TestThreads``, within ``TestSlots``: see ``Trait/mayBlock``.
public struct MayBlockTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // A slot for each running case of a test function; a suite's own scope holds none.
        let holdsSlot = testCase != nil
        if holdsSlot { await TestSlots.shared.take() }
        defer { if holdsSlot { TestSlots.shared.giveBack() } }
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == MayBlockTrait {
    /// The suite's tests may block their thread while they wait (for a device, a socket, a
    /// process): they run on threads of their own (``TestThreads``), a few at once, rather than
    /// on Swift's cooperative pool, which two blocked tests fill on a two-core machine.
    public static var mayBlock: Self { MayBlockTrait() }
}
