import Dispatch
import Platform

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
    /// the sequence is released): that disposes the subscription and frees a sender waiting
    /// for room.
    ///
    /// A signal that delivers through a buffer of its own per subscription
    /// (``buffer(_:on:dropped:)``) gives its values from before that buffer, with its policy:
    /// the sequence's buffer is then the only one between the sender and the loop.
    public var values: SignalValues<Value, Failure> {
        if let unbufferedValues { return unbufferedValues(nil, nil) }
        return values(bufferingPolicy: .lossless(capacity: 256))
    }

    /// ``values`` with the buffering policy of your choice: `.newest(capacity: 1)` keeps only
    /// the latest value while the consumer is busy (a live position display), each value
    /// pushed out counted in `dropped` (`nil`: not counted). The end of the signal, and its
    /// failure, are never dropped by the policy.
    public func values(bufferingPolicy: SignalValues<Value, Failure>.BufferingPolicy,
                       dropped: DropCounter? = nil) -> SignalValues<Value, Failure> {
        if let unbufferedValues { return unbufferedValues(bufferingPolicy, dropped) }
        return values(bufferingPolicy: bufferingPolicy, dropped: dropped, pause: nil)
    }

    /// ``values(bufferingPolicy:dropped:)`` whose lossless bound holds back a sender that
    /// pauses (`pause`), rather than making it wait, when given.
    @usableFromInline
    package func values(bufferingPolicy: SignalValues<Value, Failure>.BufferingPolicy, dropped: DropCounter?,
                        pause: SenderPause?) -> SignalValues<Value, Failure> {
        let failure = Protected<Failure?>(nil)
        let room = bufferingPolicy.capacityBeforeWaiting.map { SignalValuesRoom(capacity: $0, pause: pause) }
        let stream = AsyncStream(bufferingPolicy: bufferingPolicy.streamPolicy) { continuation in
            room?.startSubscribing()
            let subscription = observe { event in
                switch event {
                case .next(let value):
                    guard room?.waitForRoom() ?? true else { return }
                    if case .dropped = continuation.yield(value) { dropped?.add(1) }
                case .failed(let error):
                    failure.withLock { $0 = error }
                    continuation.finish()
                case .completed:
                    continuation.finish()
                }
            }
            room?.endSubscribing()
            // Frees a waiting sender before the subscription is disposed: disposing may need
            // a lock that the sender holds while it waits.
            continuation.onTermination = { _ in
                room?.close()
                subscription.dispose()
            }
        }
        return SignalValues(stream: stream, failure: failure, room: room)
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

        /// The policy of a ``Signal/buffer(_:on:dropped:)`` buffer, for a sequence.
        public init(_ policy: BufferPolicy) {
            switch policy {
            case .lossless(let capacity): self = .lossless(capacity: capacity)
            case .newest(let capacity): self = .newest(capacity: capacity)
            }
        }

        /// The newest `capacity` values wait (``newest(capacity:)``), as `AsyncStream` names it.
        public static func bufferingNewest(_ capacity: Int) -> Self { .newest(capacity: capacity) }

        /// How many values may wait before a lossless sender waits; `nil`: it never does.
        var capacityBeforeWaiting: Int? {
            guard case .lossless(let capacity) = self else { return nil }
            return Swift.max(1, capacity)
        }

        /// The stream's own policy: it drops only for `.newest`; the lossless bound is kept
        /// by ``SignalValuesRoom`` before a value reaches the stream.
        var streamPolicy: AsyncStream<Value>.Continuation.BufferingPolicy {
            guard case .newest(let capacity) = self else { return .unbounded }
            return .bufferingNewest(Swift.max(1, capacity))
        }
    }

    fileprivate let stream: AsyncStream<Value>
    fileprivate let failure: Protected<Failure?>
    fileprivate let room: SignalValuesRoom?

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), failure: failure, room: room)
    }

    /// Gives the values in order, then `nil`, or throws the signal's failure at its end.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var base: AsyncStream<Value>.Iterator
        fileprivate let failure: Protected<Failure?>
        fileprivate let room: SignalValuesRoom?

        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Value? {
            if let value = await base.next(isolation: actor) {
                room?.taken()
                return value
            }
            // Thrown once; afterwards the sequence is simply over.
            if let error = failure.withLock({ failure in
                defer { failure = nil }
                return failure
            }) {
                throw error
            }
            return nil
        }

        public mutating func next() async throws(Failure) -> Value? {
            try await next(isolation: nil)
        }
    }
}

/// The lossless bound of one ``SignalValues``: counts the values sent and not yet taken, and
/// makes a sender that may wait do so while `capacity` of them wait. The values themselves
/// travel in the `AsyncStream` (whose hand-over to the consuming task the runtime does);
/// this only holds the sender back. A ``SignalValuesRoomStateMachine`` under a lock, and a
/// semaphore that a waiting sender sleeps on, or the ``SenderPause`` of a sender that pauses.
final class SignalValuesRoom: Sendable {
    private let state: Protected<SignalValuesRoomStateMachine>
    /// Signalled once for each waiting sender freed.
    private let freed = DispatchSemaphore(value: 0)
    private let pause: SenderPause?

    init(capacity: Int, pause: SenderPause? = nil) {
        state = Protected(SignalValuesRoomStateMachine(capacity: capacity, pausesSender: pause != nil))
        self.pause = pause
    }

    /// The subscribing call starts on this thread: its own sends never wait (no one could
    /// make room).
    func startSubscribing() { state.withLock { $0.subscribingThread = CurrentThread.identity } }

    func endSubscribing() { state.withLock { $0.subscribingThread = nil } }

    /// Before a value is sent: waits while the buffer is full, if this sender may wait.
    /// Returns `false` when the consumer is gone (the value goes nowhere).
    func waitForRoom() -> Bool {
        // Asked only of a sender that would wait, outside the lock.
        var mayWait: Bool?
        let thread = CurrentThread.identity
        while true {
            switch state.withLock({ $0.send(from: thread, senderMayWait: mayWait) }) {
            case .send: return true
            case .sendAndHoldSender:
                pause?.hold()
                return true
            case .consumerGone: return false
            case .askWhetherSenderMayWait: mayWait = !CurrentThread.isMain && withUnsafeCurrentTask { $0 == nil }
            case .waitForRoom: freed.wait()
            }
        }
    }

    /// The consumer took a value: frees a waiting sender if there is one.
    func taken() {
        let (wake, release) = state.withLock { ($0.taken(), $0.letGoOfSender()) }
        if wake { freed.signal() }
        if release { pause?.release() }
    }

    /// The consumer is gone, or the signal ended: frees every waiting sender.
    func close() {
        let (waiting, release) = state.withLock { ($0.close(), $0.letGoOfSender()) }
        for _ in 0..<waiting { freed.signal() }
        if release { pause?.release() }
    }
}

/// How many values wait for the consumer of a lossless ``SignalValues``, and what a sender
/// does about it: a pure state machine, apart from ``SignalValuesRoom`` that holds its lock.
struct SignalValuesRoomStateMachine {
    /// What a sender does before it sends a value.
    enum SendAction: Equatable {
        /// Send it (counted as waiting for the consumer).
        case send
        /// Nothing: the consumer is gone.
        case consumerGone
        /// Full, and the sender may wait: wait until freed, then ask again.
        case waitForRoom
        /// Full: say whether the sender may wait, and ask again.
        case askWhetherSenderMayWait
        /// Full, and the sender pauses: send it (past the capacity), and hold the sender.
        case sendAndHoldSender
    }

    let capacity: Int
    private var waiting = 0
    private var sendersWaiting = 0
    private var isClosed = false
    /// Whether a full buffer holds its sender paused instead of making it wait.
    private let pausesSender: Bool
    private var holdsSender = false
    /// The thread in the subscribing call, while it runs: its own sends never wait. Other
    /// threads' sends meanwhile may.
    var subscribingThread: UInt?

    init(capacity: Int, pausesSender: Bool = false) {
        self.capacity = capacity
        self.pausesSender = pausesSender
    }

    /// A sender on thread `thread` is about to send; `senderMayWait` once it was asked
    /// (`nil` before).
    mutating func send(from thread: UInt, senderMayWait: Bool?) -> SendAction {
        guard !isClosed else { return .consumerGone }
        if waiting >= capacity, pausesSender {
            waiting += 1
            guard !holdsSender else { return .send }
            holdsSender = true
            return .sendAndHoldSender
        }
        if waiting >= capacity, thread != subscribingThread, senderMayWait != false {
            guard senderMayWait == true else { return .askWhetherSenderMayWait }
            sendersWaiting += 1
            return .waitForRoom
        }
        waiting += 1
        return .send
    }

    /// The consumer took a value; returns whether to free a waiting sender.
    mutating func taken() -> Bool {
        waiting = max(0, waiting - 1)
        guard sendersWaiting > 0, waiting < capacity else { return false }
        sendersWaiting -= 1
        return true
    }

    /// Returns how many waiting senders to free.
    mutating func close() -> Int {
        isClosed = true
        defer { sendersWaiting = 0 }
        return sendersWaiting
    }

    /// Whether to let go of a held sender now: closed, or half the capacity waits or less.
    mutating func letGoOfSender() -> Bool {
        guard holdsSender, isClosed || waiting <= capacity / 2 else { return false }
        holdsSender = false
        return true
    }
}
