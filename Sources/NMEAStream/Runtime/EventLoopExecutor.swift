import NIOCore
import Signals

/// A receiver's work on a SwiftNIO event loop: the loop its device is read on, so that the
/// thread a read wakes decodes the bytes and hands the result on, as gpsd does in its one
/// select loop. Also any work handed to a channel (a ``HandOff`` of its writes), which then
/// runs on the loop that owns the channel.
public struct EventLoopExecutor: ReceiverExecutor {
    /// The loop the jobs run on.
    public let loop: any EventLoop
    /// The loops' lifetime, when their owner may shut them down while receivers run (a
    /// server): nothing is put on a loop that has shut down.
    let lifetime: (any EventLoopLifetime)?
    private let origin = NIODeadline.now()

    /// Jobs on `loop`, which must run as long as jobs are given to it.
    public init(_ loop: any EventLoop) { self.init(loop, lifetime: nil) }

    /// Jobs on `loop` while `lifetime` says it runs; later ones are dropped.
    package init(_ loop: any EventLoop, lifetime: (any EventLoopLifetime)?) {
        self.loop = loop
        self.lifetime = lifetime
    }

    public var isCurrent: Bool { loop.inEventLoop }
    public var eventLoop: (any EventLoop)? { loop }

    public var now: Duration { .nanoseconds(Int64((NIODeadline.now() - origin).nanoseconds)) }

    /// Runs `action` on the loop; dropped once the loops have shut down (``EventLoopLifetime``).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        whileRunning { loop.execute { if disposable.claim() { action() } } }
        return disposable
    }

    /// Runs `action` on the loop, unless the loops have shut down: then it is dropped, and the
    /// result is `false`.
    public func scheduleWhileRunning(_ action: @escaping @Sendable () -> Void) -> Bool {
        whileRunning { loop.execute(action) }
    }

    /// Runs `action` on the loop once `delay` has passed; dropped once the loops have shut down.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let disposable = SimpleDisposable()
        whileRunning {
            loop.scheduleTask(in: .nanoseconds(Int64(delay.clampedNanoseconds))) {
                if disposable.claim() { action() }
            }
        }
        return disposable
    }

    /// Dropped once the loops have shut down.
    @discardableResult
    private func whileRunning(_ body: () -> Void) -> Bool {
        guard let lifetime else {
            body()
            return true
        }
        return lifetime.whileRunning(body)
    }
}
