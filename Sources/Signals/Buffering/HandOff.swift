/// A bounded hand-off of values from any thread to a scheduler: the one way work crosses from
/// a reader's queue, an event loop or a signal's sender to another executor when the sender
/// must never wait.
///
/// At most `capacity` values wait. A value sent while they do pushes out the oldest waiting
/// one, which is counted in `dropped`: the sender never waits and never grows memory, however
/// fast it sends, and the receiving side skips ahead to the newest values. Each value is
/// delivered once, in order, on the scheduler, one at a time; nothing is delivered after
/// ``close()``. It is the same buffer as ``Signal/buffer(_:on:dropped:)`` with
/// ``BufferPolicy/newest(capacity:)``, for code that is not a signal (a socket's writes, a
/// log's lines).
///
/// ```swift
/// let lines = HandOff<String>(capacity: 256, on: QueueScheduler(), dropped: counter) { line in
///     write(line)          // may block: only the scheduler's queue waits
/// }
/// lines.send("hello")      // never blocks
/// ```
public final class HandOff<Value: Sendable>: Sendable {
    private let sendValue: @Sendable (Value) -> Void
    private let closeStorage: @Sendable () -> Void

    /// A hand-off to `scheduler`, where `deliver` takes each value, with at most `capacity`
    /// (at least one) waiting; each value pushed out is added to `dropped`.
    public init<S: Scheduler>(capacity: Int, on scheduler: S, dropped: DropCounter? = nil,
                              deliver: @escaping @Sendable (Value) -> Void) {
        let storage = BufferStorage<Value, Never, S>(policy: .newest(capacity: capacity), scheduler: scheduler,
                                                     observer: Observer { event in
                                                         if case .next(let value) = event { deliver(value) }
                                                     },
                                                     dropped: dropped)
        sendValue = { storage.send($0) }
        closeStorage = { storage.close() }
    }

    /// Hands `value` over: it waits for the scheduler, pushing out the oldest waiting value
    /// if `capacity` already wait. Never blocks. Ignored after ``close()``.
    public func send(_ value: Value) { sendValue(value) }

    /// Discards what waits; nothing is delivered from now on.
    public func close() { closeStorage() }
}
