import NIOCore
import NIOPosix
import Signals

/// Where one receiver's work runs: one job at a time, in the order given. A reader opens its
/// source, decodes its bytes, times its watchdog and calls its delegates there, and nowhere
/// else; no other thread enters it synchronously.
///
/// Two kinds exist: a serial Dispatch queue of the reader's own (``SerialQueueExecutor``, the
/// library's default), and the SwiftNIO event loop the receiver's device is read on
/// (``EventLoopExecutor``, as `serve` runs its receivers: the thread a device's bytes wake is
/// the one that decodes them).
public protocol ReceiverExecutor: Scheduler {
    /// Whether the calling thread is running one of its jobs now.
    var isCurrent: Bool { get }

    /// The event loop it is, when it is one: a device read for it is read on that loop, and
    /// its bytes are decoded where they were read. `nil` for a Dispatch queue.
    var eventLoop: (any EventLoop)? { get }

    /// Runs `action` as ``Scheduler/schedule(_:)`` does, and says whether it will run: `false`
    /// once the executor runs no more jobs (its event loops shut down by their owner), and then
    /// `action` is dropped, as every job given to it from then on is.
    func scheduleWhileRunning(_ action: @escaping @Sendable () -> Void) -> Bool
}

extension ReceiverExecutor {
    /// Not an event loop.
    public var eventLoop: (any EventLoop)? { nil }

    /// Always runs.
    public func scheduleWhileRunning(_ action: @escaping @Sendable () -> Void) -> Bool {
        schedule(action)
        return true
    }
}

/// The one rule for waiting on a receiver: a thread that runs receivers' work (a reader's
/// queue, or any event loop, where devices are read and closed) never waits for one, since
/// what it would wait for may need that very thread. Elsewhere a caller may wait.
enum ReceiverWaiting {
    /// Whether the calling thread may block until a receiver has done something.
    static var mayWait: Bool {
        !SerialQueueExecutor.isOnAny && MultiThreadedEventLoopGroup.currentEventLoop == nil
    }
}
