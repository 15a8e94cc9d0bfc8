import Dispatch

extension Signal {
    /// The values as an `AsyncSequence` that throws the signal's failure (a plain `for await`
    /// when `Failure` is `Never`), through a bounded buffer: when 256 values wait for the
    /// consumer, the sender waits for room (``SignalValues/BufferingPolicy/lossless(capacity:)``).
    ///
    /// ```swift
    /// for await reading in thermometer.readings.values { print(reading) }
    /// ```
    /// A signal delivered through ``buffer(_:on:dropped:)`` is sent from its scheduler's
    /// queue, so the wait reaches that buffer, and its policy decides: a lossless buffer makes
    /// its own sender wait, a newest one skips ahead (counted). A sender that must never
    /// wait is never made to: the main thread, a Swift task, or the subscribing call itself
    /// (a signal that sends as it is subscribed) add to the buffer past its capacity instead;
    /// choose ``SignalValues/BufferingPolicy/newest(capacity:)`` to bound those too.
    ///
    /// The subscription starts when this property is read and ends when the signal terminates
    /// or when the sequence ends (the consuming task is cancelled, or the iteration stops and
    /// the sequence is released): that disposes the subscription.
    public var values: SignalValues<Value, Failure> { values(bufferingPolicy: .lossless(capacity: 256)) }

    /// ``values`` with the buffering policy of your choice: `.newest(capacity: 1)` keeps only
    /// the latest value while the consumer is busy (a live position display), each value
    /// pushed out counted in `dropped`. The end of the signal, and its failure, are never
    /// dropped by the policy.
    public func values(bufferingPolicy: SignalValues<Value, Failure>.BufferingPolicy,
                       dropped: DropCounter? = nil) -> SignalValues<Value, Failure> {
        let storage = SignalValuesStorage<Value, Failure>(policy: bufferingPolicy, dropped: dropped)
        storage.subscribe(to: self)
        return SignalValues(storage: storage)
    }
}

/// A signal's values as an `AsyncSequence`: see ``Signal/values``. Iterate it once.
public struct SignalValues<Value: Sendable, Failure: Error>: AsyncSequence, Sendable {
    /// How values wait while the consumer is busy.
    public enum BufferingPolicy: Sendable, Hashable {
        /// At most `capacity` values wait; then the sender waits for room (when it may wait:
        /// see ``Signal/values``). Nothing is lost.
        case lossless(capacity: Int)
        /// At most `capacity` values wait; a new one pushes out the oldest, counted as
        /// dropped. The sender never waits.
        case newest(capacity: Int)
        /// Every value waits, however many: memory grows with a slow consumer.
        case unbounded

        /// The newest `capacity` values wait (``newest(capacity:)``), as `AsyncStream` names it.
        public static func bufferingNewest(_ capacity: Int) -> Self { .newest(capacity: capacity) }
    }

    fileprivate let lifetime: SignalValuesLifetime<Value, Failure>

    fileprivate init(storage: SignalValuesStorage<Value, Failure>) {
        lifetime = SignalValuesLifetime(storage: storage)
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(lifetime: lifetime) }

    /// Gives the values in order, then `nil`, or throws the signal's failure at its end.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let lifetime: SignalValuesLifetime<Value, Failure>

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Value? {
            let storage = lifetime.storage
            let result = await withTaskCancellationHandler {
                await withUnsafeContinuation(isolation: actor) { continuation in storage.next(continuation) }
            } onCancel: {
                storage.cancel()
            }
            switch result {
            case .value(let value): return value
            case .end: return nil
            case .failure(let error): throw error
            }
        }

        public mutating func next() async throws(Failure) -> Value? {
            try await next(isolation: nil)
        }
    }
}

/// Ends the subscription when the last of the sequence and its iterator is released.
private final class SignalValuesLifetime<Value: Sendable, Failure: Error>: Sendable {
    let storage: SignalValuesStorage<Value, Failure>
    init(storage: SignalValuesStorage<Value, Failure>) { self.storage = storage }
    deinit { storage.cancel() }
}

/// Holds a ``SignalValuesStateMachine`` under a lock and does what it says: wakes the
/// consumer, makes a sender wait for room.
private final class SignalValuesStorage<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let state: Protected<SignalValuesStateMachine<Value, Failure>>
    private let subscription = SerialDisposable()
    private let dropped: DropCounter?
    /// Signalled once per value taken while a sender waits for room.
    private let room = DispatchSemaphore(value: 0)

    init(policy: SignalValues<Value, Failure>.BufferingPolicy, dropped: DropCounter?) {
        state = Protected(SignalValuesStateMachine(policy: policy))
        self.dropped = dropped
    }

    func subscribe(to signal: Signal<Value, Failure>) {
        state.withLock { $0.subscribingThread = CurrentThread.identity }
        let disposable = signal.observe { [self] event in
            switch event {
            case .next(let value): send(value)
            case .error(let error): finish(.failure(error))
            case .completed: finish(.end)
            }
        }
        subscription.inner = disposable
        state.withLock { $0.subscribingThread = nil }
    }

    private func send(_ value: Value) {
        // Asked only of a sender that would wait, outside the lock.
        var mayWait: Bool?
        let thread = CurrentThread.identity
        while true {
            switch state.withLock({ $0.send(value, from: thread, senderMayWait: mayWait) }) {
            case .askWhetherSenderMayWait: mayWait = !CurrentThread.isMain && withUnsafeCurrentTask { $0 == nil }
            case .none: return
            case .resume(let consumer): consumer.resume(returning: .value(value)); return
            case .droppedOldest: dropped?.add(1); return
            case .waitForRoom: room.wait()
            }
        }
    }

    private func finish(_ end: SignalValuesStateMachine<Value, Failure>.Next, discarding: Bool = false) {
        let (consumer, senders) = state.withLock { $0.finish(end, discarding: discarding) }
        consumer?.resume(returning: end)
        for _ in 0..<senders { room.signal() }
    }

    func next(_ consumer: UnsafeContinuation<SignalValuesStateMachine<Value, Failure>.Next, Never>) {
        let (ready, wake) = state.withLock { $0.next(consumer) }
        if wake { room.signal() }
        if let ready { consumer.resume(returning: ready) }
    }

    /// The consumer is gone: the subscription is disposed, a sender waiting is freed.
    func cancel() {
        finish(.end, discarding: true)
        subscription.dispose()
    }
}

/// The state of one ``SignalValues`` buffer, and what to do at each step: a pure state
/// machine, apart from the storage that holds its lock.
struct SignalValuesStateMachine<Value: Sendable, Failure: Error> {
    /// What the consumer gets next.
    enum Next {
        case value(Value)
        case end
        case failure(Failure)
    }

    /// What to do with a value sent.
    enum SendAction {
        /// Nothing more (it waits in the buffer, or came after the end).
        case none
        /// Hand it to the consumer waiting for it.
        case resume(UnsafeContinuation<Next, Never>)
        /// It is in; the oldest waiting value was pushed out.
        case droppedOldest
        /// Full, and the sender may wait: wait for room, then send again.
        case waitForRoom
        /// Full (lossless): say whether the sender may wait, and send again.
        case askWhetherSenderMayWait
    }

    let policy: SignalValues<Value, Failure>.BufferingPolicy
    private var waiting: [Value] = []
    private var head = 0
    private var end: Next?
    private var consumer: UnsafeContinuation<Next, Never>?
    private var sendersWaiting = 0
    /// The thread in the subscribing call, while it runs: its own sends never wait (no one
    /// could make room). Other threads' sends meanwhile may.
    var subscribingThread: UInt?

    init(policy: SignalValues<Value, Failure>.BufferingPolicy) { self.policy = policy }

    private var count: Int { waiting.count - head }

    /// A value sent from the thread `thread`; `senderMayWait` once the sender was asked (`nil`
    /// before).
    mutating func send(_ value: Value, from thread: UInt, senderMayWait: Bool?) -> SendAction {
        guard end == nil else { return .none }
        if let consumer {
            self.consumer = nil
            return .resume(consumer)
        }
        switch policy {
        case .lossless(let capacity) where count >= max(1, capacity) && thread != subscribingThread && senderMayWait != false:
            guard senderMayWait == true else { return .askWhetherSenderMayWait }
            sendersWaiting += 1
            return .waitForRoom
        case .newest(let capacity) where count >= max(1, capacity):
            _ = removeFirst()
            waiting.append(value)
            return .droppedOldest
        default:
            waiting.append(value)
            return .none
        }
    }

    /// The signal's end, after every waiting value; or the consumer's (`discarding` what
    /// waits). Returns the consumer to resume now (nothing waits for it) and how many senders
    /// to free.
    mutating func finish(_ end: Next, discarding: Bool) -> (UnsafeContinuation<Next, Never>?, Int) {
        if discarding {
            waiting = []
            head = 0
        }
        guard self.end == nil else { return (nil, 0) }
        self.end = end
        defer { sendersWaiting = 0 }
        let consumer = self.consumer
        self.consumer = nil
        return (consumer, sendersWaiting)
    }

    /// The consumer asks for the next value: returns it at once when one waits (and whether
    /// to wake a sender), or keeps the continuation for the next send.
    mutating func next(_ continuation: UnsafeContinuation<Next, Never>) -> (Next?, Bool) {
        if let value = removeFirst() {
            guard sendersWaiting > 0 else { return (.value(value), false) }
            sendersWaiting -= 1
            return (.value(value), true)
        }
        if let end {
            // A failure is thrown once; afterwards the sequence is simply over.
            self.end = .end
            return (end, false)
        }
        consumer = continuation
        return (nil, false)
    }

    private mutating func removeFirst() -> Value? {
        guard head < waiting.count else { return nil }
        let value = waiting[head]
        head += 1
        // Compacted once half is taken: each value moves at most once on average.
        if head * 2 >= waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
        return value
    }
}
