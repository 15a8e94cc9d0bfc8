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
    }

    /// What a drain step takes: the next event to deliver (`nil`: stop draining), and whether a
    /// sender waiting for room is to be woken.
    @usableFromInline
    struct Take {
        @usableFromInline var event: Event<Value, Failure>?
        @usableFromInline var wakeSender = false
        @inlinable init() {}
    }

    @usableFromInline let policy: BufferPolicy
    @usableFromInline var waiting: RingBuffer<Value>
    @usableFromInline var terminal: Event<Value, Failure>?
    @usableFromInline var isDraining = false
    @usableFromInline var isClosed = false
    /// Senders waiting for room (lossless), to be woken one per value taken, or all on close.
    @usableFromInline var sendersWaiting = 0

    @inlinable
    init(policy: BufferPolicy) {
        self.policy = policy
        waiting = RingBuffer(capacity: policy.capacity)
    }

    @inlinable
    mutating func send(_ value: Value) -> SendAction {
        guard !isClosed, terminal == nil else { return .none }
        var dropped = false
        if waiting.isFull {
            switch policy {
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

    /// For a lossless buffer: every waiting value at once, swapped into `batch` (which must be
    /// empty and of the same capacity), to be delivered outside the lock; then, once `batch`
    /// is delivered, ``take()`` for the end. Returns how many waiting senders to wake (all of
    /// them: the buffer is empty), or `nil` when nothing waits (``take()`` decides the rest).
    @inlinable
    mutating func takeAll(into batch: inout RingBuffer<Value>) -> Int? {
        guard !isClosed, !waiting.isEmpty, case .lossless = policy else { return nil }
        swap(&waiting, &batch)
        defer { sendersWaiting = 0 }
        return sendersWaiting
    }

    /// The subscription is disposed: nothing more is delivered. Returns how many waiting
    /// senders to wake.
    @inlinable
    mutating func close() -> Int {
        isClosed = true
        waiting.removeAll()
        defer { sendersWaiting = 0 }
        return sendersWaiting
    }

    @inlinable
    mutating func claimDrain() -> Bool {
        guard !isDraining else { return false }
        isDraining = true
        return true
    }
}
