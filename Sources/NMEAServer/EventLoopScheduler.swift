import NIOCore
import NMEAStream

/// An event loop as a ``Scheduler``: work handed to a channel (a ``HandOff`` of its writes)
/// runs on the loop that owns the channel, where its writability is true when read, and not
/// after a second hop.
struct EventLoopScheduler: Scheduler {
    let loop: any EventLoop
    private let origin = NIODeadline.now()

    init(_ loop: any EventLoop) { self.loop = loop }

    var now: Duration { .nanoseconds(Int64((NIODeadline.now() - origin).nanoseconds)) }

    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        loop.execute { if disposable.claim() { action() } }
        return disposable
    }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        loop.scheduleTask(in: .nanoseconds(Int64(delay.clampedNanoseconds))) {
            if disposable.claim() { action() }
        }
        return disposable
    }
}
