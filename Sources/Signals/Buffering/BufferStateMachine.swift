/// The state of one buffered subscription, and what to do at each step: a pure state
/// machine, apart from the storage that holds its lock (``BufferStorage``).
@usableFromInline
struct BufferStateMachine<Value: Sendable, Failure: Error> {
    /// What to do with a value that arrived.
    @usableFromInline
    enum SendAction: Equatable {
        /// Nothing more (it waits, or it was discarded after the end).
        case none
        /// Schedule a drain: nothing is delivering.
        case startDraining
        /// The buffer is full and lossless: wait for room, then send again.
        case waitForRoom
        /// The oldest waiting value was pushed out to make room.
        case droppedOldest
        /// The buffer is full and lossless, and its sender pauses: the value is kept past the
        /// capacity, and the sender is to be held (``SenderPause``).
        case holdSender
    }

    /// What a drain step takes: the next event to deliver (`nil`: stop draining), and whether a
    /// sender waiting for room is to be woken.
    @usableFromInline
    struct Take {
        @usableFromInline var event: Event<Value, Failure>?
        @usableFromInline var wakeSender = false
        /// Whether to let go of a held sender: the buffer is down to half its capacity.
        @usableFromInline var releaseSender = false
        @inlinable init() {}
    }

    @usableFromInline let policy: BufferPolicy
    @usableFromInline var waiting: RingBuffer<Value>
    @usableFromInline var terminal: Event<Value, Failure>?
    @usableFromInline var isDraining = false
    @usableFromInline var isClosed = false
    /// Senders waiting for room (lossless), to be woken one per value taken, or all on close.
    @usableFromInline var sendersWaiting = 0
    /// Whether a full lossless buffer holds its sender paused instead of making it wait.
    @usableFromInline let pausesSender: Bool
    /// What came while the sender was held, after `waiting` and in order.
    @usableFromInline var overflow: [Value] = []
    @usableFromInline var overflowHead = 0
    @usableFromInline var holdsSender = false

    @inlinable
    init(policy: BufferPolicy, pausesSender: Bool = false) {
        self.policy = policy
        self.pausesSender = pausesSender
        waiting = RingBuffer(capacity: policy.capacity)
    }

    @inlinable
    var hasOverflow: Bool { overflowHead < overflow.count }

    @inlinable
    mutating func send(_ value: Value) -> SendAction {
        guard !isClosed, terminal == nil else { return .none }
        var dropped = false
        if waiting.isFull || hasOverflow {
            switch policy {
            case .lossless where pausesSender:
                overflow.append(value)
                guard !holdsSender else { return .none }
                holdsSender = true
                return .holdSender
            case .lossless:
                sendersWaiting += 1
                return .waitForRoom
            case .newest:
                _ = waiting.removeFirst()
                dropped = true
            }
        }
        waiting.append(value)
        if dropped { return .droppedOldest }
        return claimDrain() ? .startDraining : .none
    }

    /// The end of the stream: never dropped, delivered after every waiting value. Returns
    /// whether to schedule a drain.
    @inlinable
    mutating func terminate(_ event: Event<Value, Failure>) -> Bool {
        guard !isClosed, terminal == nil else { return false }
        terminal = event
        return claimDrain()
    }

    /// The next event to deliver, one at a time: what waits meanwhile can still be pushed out.
    @inlinable
    mutating func take() -> Take {
        var take = Take()
        if !isClosed {
            if let value = waiting.removeFirst() {
                take.event = .next(value)
                if sendersWaiting > 0 {
                    sendersWaiting -= 1
                    take.wakeSender = true
                }
                refill()
                take.releaseSender = letGoOfSender()
                return take
            }
            if let terminal {
                isClosed = true
                take.event = terminal
                return take
            }
        }
        isDraining = false
        return take
    }

    /// What ``takeAll(into:)`` frees: the senders waiting (all of them: there is room), and
    /// whether a held sender is let go.
    @usableFromInline
    struct Freed {
        @usableFromInline var sendersWaiting: Int
        @usableFromInline var releaseSender: Bool
        @inlinable init(sendersWaiting: Int, releaseSender: Bool) {
            self.sendersWaiting = sendersWaiting
            self.releaseSender = releaseSender
        }
    }

    /// For a lossless buffer: every waiting value at once, swapped into `batch` (which must be
    /// empty and of the same capacity), to be delivered outside the lock; then, once `batch`
    /// is delivered, ``take()`` for the end. Returns the senders to free, or `nil` when nothing
    /// waits (``take()`` decides the rest).
    @inlinable
    mutating func takeAll(into batch: inout RingBuffer<Value>) -> Freed? {
        guard !isClosed, !waiting.isEmpty, case .lossless = policy else { return nil }
        swap(&waiting, &batch)
        refill()
        defer { sendersWaiting = 0 }
        return Freed(sendersWaiting: sendersWaiting, releaseSender: letGoOfSender())
    }

    /// Moves what overflowed into the room made, in order.
    @inlinable
    mutating func refill() {
        while hasOverflow, !waiting.isFull {
            waiting.append(overflow[overflowHead])
            overflowHead += 1
        }
        if !hasOverflow, overflowHead > 0 {
            overflow.removeAll(keepingCapacity: true)
            overflowHead = 0
        }
    }

    /// Whether to let go of the held sender now: nothing overflows, and at most half the
    /// capacity waits (so that the sender fills the other half before it is held again).
    @inlinable
    mutating func letGoOfSender() -> Bool {
        guard holdsSender, !hasOverflow, waiting.count <= waiting.capacity / 2 else { return false }
        holdsSender = false
        return true
    }

    /// The subscription is disposed: nothing more is delivered. Returns the senders to free.
    @inlinable
    mutating func close() -> Freed {
        isClosed = true
        waiting.removeAll()
        overflow.removeAll()
        overflowHead = 0
        defer {
            sendersWaiting = 0
            holdsSender = false
        }
        return Freed(sendersWaiting: sendersWaiting, releaseSender: holdsSender)
    }

    @inlinable
    mutating func claimDrain() -> Bool {
        guard !isDraining else { return false }
        isDraining = true
        return true
    }
}
