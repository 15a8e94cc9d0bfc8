import Synchronization

/// What ``Signal/buffer(_:on:dropped:)`` does when values arrive faster than its observer
/// takes them.
public enum BufferPolicy: Sendable, Hashable {
    /// Every value is delivered, in order. When `capacity` values wait, the sender waits until
    /// there is room (backpressure): nothing is lost, and the sender goes no faster than the
    /// observer. The observer takes every waiting value at once, so up to `capacity` more may
    /// be on their way to it. The sender must not be the scheduler's own queue.
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
    private let totals: [DropCounter]

    /// A counter at zero.
    public init() { totals = [] }

    /// A counter at zero whose counts are also added to each of `totals` (`nil`s ignored): a
    /// subscription's own count, and its owner's total.
    public init(alsoCounting totals: DropCounter?...) { self.totals = totals.compactMap { $0 } }

    /// How many values were dropped so far.
    public var count: Int { dropped.load(ordering: .relaxed) }

    @usableFromInline
    func add(_ count: Int) {
        dropped.add(count, ordering: .relaxed)
        for total in totals { total.add(count) }
    }
}
