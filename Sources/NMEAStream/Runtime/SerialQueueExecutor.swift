import Dispatch
import Signals

/// A receiver's work on a serial Dispatch queue of its own: the library's readers run there
/// unless their read loop runs them on an event loop.
public final class SerialQueueExecutor: ReceiverExecutor {
    /// The serial queue the jobs run on.
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<Void>()
    private let scheduler: QueueScheduler

    /// Set on every such executor's queue.
    private static let anyKey = DispatchSpecificKey<Void>()

    /// An executor on a new serial queue named `label`, which targets `target` (Dispatch's
    /// default when `nil`): the target is where its jobs end up running, `.main` for a
    /// program's main thread.
    public init(label: String, target: DispatchQueue? = nil) {
        queue = DispatchQueue(label: label, target: target)
        queue.setSpecific(key: key, value: ())
        queue.setSpecific(key: Self.anyKey, value: ())
        scheduler = QueueScheduler(queue: queue)
    }

    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Whether the caller runs on some executor's queue.
    static var isOnAny: Bool { DispatchQueue.getSpecific(key: anyKey) != nil }

    public var now: Duration { scheduler.now }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable { scheduler.schedule(action) }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        scheduler.schedule(after: delay, action)
    }
}
