import Synchronization

/// What ``Signal/buffer(_:on:dropped:)`` does when values arrive faster than its observer
/// takes them.
public enum BufferPolicy: Sendable, Hashable {
    /// Every value is delivered, in order. When `capacity` values wait, the sender waits until
    /// one has been delivered (backpressure): nothing is lost, and the sender goes no faster
    /// than the observer. The sender must not be the scheduler's own queue.
    case lossless(capacity: Int)
    /// At most `capacity` values wait. One that arrives while they do pushes out the oldest
    /// waiting value, which is counted as dropped: a slow observer skips ahead to the newest
    /// values, and never holds up the sender.
    case newest(capacity: Int)

    /// How many values may wait (at least one).
    public var capacity: Int {
        switch self {
        case .lossless(let capacity), .newest(let capacity): max(1, capacity)
        }
    }
}

/// Counts the values a ``BufferPolicy/newest(capacity:)`` buffer dropped. Thread-safe; one
/// counter may be shared by several buffers.
public final class DropCounter: Sendable {
    private let dropped = Atomic<Int>(0)

    /// A counter at zero.
    public init() {}

    /// How many values were dropped so far.
    public var count: Int { dropped.load(ordering: .relaxed) }

    func add(_ count: Int) { dropped.add(count, ordering: .relaxed) }
}
