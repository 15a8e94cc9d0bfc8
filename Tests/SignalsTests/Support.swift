#if canImport(Glibc)
import Glibc
import Platform
#endif
import Signals
import TestSupport

/// Collects what an observer receives (thread-safe).
final class Recorder<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var storage: [Event<Value, Failure>] = []

    var events: [Event<Value, Failure>] { lock.withLock { storage } }
    var values: [Value] { events.compactMap(\.value) }
    var isCompleted: Bool { events.contains { if case .completed = $0 { true } else { false } } }
    var terminalCount: Int { events.filter(\.isTerminal).count }

    private let changes = ChangeNotifier()

    func record(_ event: Event<Value, Failure>) {
        lock.withLock { storage.append(event) }
        changes.changed()
    }

    /// Waits until `condition` holds, asked now and after each event, at most `seconds`.
    func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
        changes.wait(seconds: seconds, until: condition)
    }

    func observe(_ signal: Signal<Value, Failure>) -> Disposable {
        signal.observe { [self] in record($0) }
    }
}

/// Counts how an upstream is subscribed and released.
final class UpstreamProbe: @unchecked Sendable {
    private let lock = Lock()
    private(set) var subscribeCount = 0
    private(set) var disposeCount = 0
    private(set) var maximumOpen = 0
    var open: Int { lock.withLock { subscribeCount - disposeCount } }
    var subscriptions: Int { lock.withLock { subscribeCount } }
    var disposals: Int { lock.withLock { disposeCount } }
    var peak: Int { lock.withLock { maximumOpen } }

    func subscribed() {
        lock.withLock {
            subscribeCount += 1
            maximumOpen = max(maximumOpen, subscribeCount - disposeCount)
        }
    }

    func disposed() { lock.withLock { disposeCount += 1 } }

    /// A signal that records its subscriptions and hands its observer to `body`.
    func signal<Value: Sendable>(_ body: @escaping @Sendable (Observer<Value, Never>) -> Void = { _ in }) -> Signal<Value, Never> {
        Signal { [self] observer in
            subscribed()
            body(observer)
            return BlockDisposable { [self] in disposed() }
        }
    }
}

struct TestError: Error, Equatable {}

/// Runs `body(index)` on `count` new threads at once (real threads: the test machine may have
/// fewer cores than the cooperative pool would need) and returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Start: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
    pthread_barrier_init(barrier, nil, UInt32(count))
    defer { pthread_barrier_destroy(barrier); barrier.deallocate() }
    let threads = (0..<count).map { index -> pthread_t in
        let start = Start { [barrier = UnsafeSendable(barrier)] in
            pthread_barrier_wait(barrier.value)
            body(index)
        }
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, Unmanaged.passRetained(start).toOpaque())
        precondition(result == 0, "pthread_create failed: \(result)")
        return thread
    }
    for thread in threads { pthread_join(thread, nil) }
}

private struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
