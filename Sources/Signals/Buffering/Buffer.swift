import Dispatch
import Platform

extension Signal {
    /// Delivers this signal's events on `scheduler` through a buffer, so that the observer
    /// runs apart from the sender, in order, with `policy` deciding what happens when it falls
    /// behind: wait (``BufferPolicy/lossless(capacity:)``) or skip ahead
    /// (``BufferPolicy/newest(capacity:)``, each value pushed out counted in `dropped`).
    ///
    /// The end of the stream is never dropped: it comes after every value still waiting.
    /// Disposing the subscription discards what waits and frees a sender waiting for room.
    ///
    /// ```swift
    /// let dropped = DropCounter()
    /// fixes.buffer(.newest(capacity: 8), on: QueueScheduler(), dropped: dropped)
    ///     .observe(next: { fix in draw(fix) })
    /// ```
    ///
    /// Its ``values`` skip this buffer: they are taken from this signal into the sequence's
    /// buffer alone, with `policy` unless the sequence is given its own; what the sequence
    /// skips is counted in `dropped`, and also in the counter it is given.
    @inlinable
    public func buffer(_ policy: BufferPolicy, on scheduler: some Scheduler, dropped: DropCounter? = nil) -> Signal {
        buffer(policy, senderWaits: true, dropped: dropped) { scheduler }
    }

    /// ``buffer(_:on:dropped:)`` on a scheduler made for each subscription by `makeScheduler`
    /// (a queue of its own, say).
    ///
    /// With `senderWaits` false, the sender must never be held up (a receiver does not wait
    /// for its reader): a lossless policy, the buffer's or one given to ``values``, keeps its
    /// capacity but skips ahead past it, each value skipped counted, instead of making the
    /// sender wait. With `pause`, a sender that can pause (a recorded log) is held back by
    /// pausing it rather than by making its thread wait (``SenderPause``). This is the one
    /// place those rules are applied, for every way of consuming.
    @inlinable
    package func buffer<S: Scheduler>(_ policy: BufferPolicy, senderWaits: Bool, pause: SenderPause? = nil, dropped: DropCounter?,
                                      scheduler makeScheduler: @escaping @Sendable () -> S) -> Signal {
        let source = self
        let policy = senderWaits ? policy : .newest(capacity: policy.capacity)
        return Signal({ observer in
            let storage = BufferStorage(policy: policy, scheduler: makeScheduler(), observer: observer, dropped: dropped,
                                        pause: senderWaits ? pause : nil)
            let upstream = source.observe { event in
                switch event {
                case .next(let value): storage.send(value)
                case .failed, .completed: storage.terminate(event)
                }
            }
            return BlockDisposable {
                // Closed first: a sender waiting for room is freed before the upstream is
                // disposed, which may wait for that sender's queue.
                storage.close()
                upstream.dispose()
            }
        }, unbufferedValues: { valuesPolicy, valuesDropped in
            var valuesPolicy = valuesPolicy ?? SignalValues.BufferingPolicy(policy)
            if !senderWaits, case .lossless(let capacity) = valuesPolicy { valuesPolicy = .newest(capacity: capacity) }
            let counter = valuesDropped.map { DropCounter(alsoCounting: $0, dropped) } ?? dropped
            return source.values(bufferingPolicy: valuesPolicy, dropped: counter, pause: senderWaits ? pause : nil)
        })
    }
}

/// Holds a ``BufferStateMachine`` under a lock and does what it says.
@usableFromInline
final class BufferStorage<Value: Sendable, Failure: Error, S: Scheduler>: @unchecked Sendable {
    @usableFromInline let state: Protected<BufferStateMachine<Value, Failure>>
    @usableFromInline let scheduler: S
    @usableFromInline let observer: Observer<Value, Failure>
    @usableFromInline let dropped: DropCounter?
    /// Holds a sender that pauses, when the buffer is full, instead of making it wait.
    @usableFromInline let pause: SenderPause?
    /// Signalled once per value taken while a lossless sender waits for room.
    @usableFromInline let room = DispatchSemaphore(value: 0)
    /// A lossless buffer's values taken out at once, delivered outside the lock. Touched
    /// only by the drain, which runs once at a time.
    @usableFromInline var batch: RingBuffer<Value>

    @inlinable
    init(policy: BufferPolicy, scheduler: S, observer: Observer<Value, Failure>, dropped: DropCounter?,
         pause: SenderPause? = nil) {
        state = Protected(BufferStateMachine(policy: policy, pausesSender: pause != nil))
        self.pause = pause
        batch = RingBuffer(capacity: policy.capacity)
        self.scheduler = scheduler
        self.observer = observer
        self.dropped = dropped
    }

    @inlinable
    func send(_ value: Value) {
        while true {
            switch state.withLock({ $0.send(value) }) {
            case .none: return
            case .startDraining:
                scheduler.schedule { self.drain() }
                return
            case .droppedOldest:
                dropped?.add(1)
                return
            case .waitForRoom:
                room.wait()
            case .holdSender:
                pause?.hold()
                return
            }
        }
    }

    @inlinable
    func terminate(_ event: Event<Value, Failure>) {
        if state.withLock({ $0.terminate(event) }) { scheduler.schedule { self.drain() } }
    }

    @inlinable
    func close() {
        let freed = state.withLock { $0.close() }
        free(freed)
    }

    @inlinable
    func drain() {
        while true {
            // Lossless: one lock for every value waiting, not one each.
            if let freed = state.withLock({ $0.takeAll(into: &batch) }) {
                free(freed)
                while let value = batch.removeFirst() { observer.on(.next(value)) }
                continue
            }
            let take = state.withLock { $0.take() }
            if take.wakeSender { room.signal() }
            if take.releaseSender { pause?.release() }
            guard let event = take.event else { return }
            observer.on(event)
        }
    }

    @inlinable
    func free(_ freed: BufferStateMachine<Value, Failure>.Freed) {
        for _ in 0..<freed.sendersWaiting { room.signal() }
        if freed.releaseSender { pause?.release() }
    }
}
