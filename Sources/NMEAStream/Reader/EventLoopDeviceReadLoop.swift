import Dispatch
import NIOCore
import NIOPosix
import Platform

/// Reads devices on SwiftNIO's event loops: each device's descriptor is handed to a pipe
/// channel, which owns it (closing the channel closes the device), and the loop's epoll tells
/// it when bytes arrive.
///
/// The library's readers use one on NIO's shared loops (``init()``): their bytes are read there
/// and handed to each reader's own queue. A program that runs event loops of its own can run
/// its readers on them instead (``init(group:)``): then the thread the device's bytes wake is
/// the one that decodes them, as gpsd reads its devices in its one select loop (the
/// gpsd-protocol server does this: a report reaches a client on the thread that read it).
///
/// Dispatch read sources are not used: on Linux, libdispatch's epoll bookkeeping can free a
/// registration that is still reachable when sources on descriptors come and go from several
/// threads at once (swift-corelibs-libdispatch issue 949), and the process then crashes on
/// Dispatch's event thread. Devices opened and closed as subscribers come and go are that churn.
public final class EventLoopDeviceReadLoop: DeviceReadLoop {
    private let group: any EventLoopGroup
    /// Whether its readers run on the loop their device is read on, rather than on a queue of
    /// their own.
    let runsReadersOnLoops: Bool
    /// The loops' lifetime, when the group's owner may shut them down while devices are read
    /// (a server): nothing is put on a loop that has shut down (its shutdown closed the device).
    let lifetime: (any EventLoopLifetime)?
    /// The loop the next device opened is read on; `nil` for the group's next.
    private let preferred = Protected<(any EventLoop)?>(nil)

    /// Reads devices on SwiftNIO's shared event loops (`NIOSingletons.posixEventLoopGroup`),
    /// handing each read's bytes to the reader's queue: a slow reader never holds a loop.
    public convenience init() {
        self.init(group: NIOSingletons.posixEventLoopGroup, lifetime: nil, runsReadersOnLoops: false)
    }

    /// Reads devices on `group`'s loops, and runs each reader there: its executor is the loop
    /// its device is read on (``EventLoopExecutor``), where the bytes are decoded in the read's
    /// own call and its delegates are called. `group` must run for as long as a reader reads
    /// with this loop.
    public convenience init(group: any EventLoopGroup) {
        self.init(group: group, lifetime: nil, runsReadersOnLoops: true)
    }

    /// Reads devices on `group`'s loops, within `lifetime` when given; its readers run on the
    /// loops when `runsReadersOnLoops`, on queues of their own otherwise.
    package init(group: any EventLoopGroup, lifetime: (any EventLoopLifetime)?, runsReadersOnLoops: Bool) {
        self.group = group
        self.lifetime = lifetime
        self.runsReadersOnLoops = runsReadersOnLoops
    }

    /// The loop the reader's device will be read on, or a serial queue of the reader's own.
    public func makeExecutor(label: String, target: DispatchQueue?) -> any ReceiverExecutor {
        guard runsReadersOnLoops else { return SerialQueueExecutor(label: label, target: target) }
        return EventLoopExecutor(nextLoop(), lifetime: lifetime)
    }

    /// Its own loops read network receivers' sockets too.
    public var socketReadLoop: EventLoopDeviceReadLoop { self }

    /// Reads the next device opened, and runs its reader, on `loop`.
    package func prefer(_ loop: any EventLoop) { preferred.withLock { $0 = loop } }

    /// The loop the next device or connection is read on.
    func nextLoop() -> any EventLoop { preferred.withLock { $0 } ?? group.next() }

    public func startReading(_ descriptor: Int32, on executor: any ReceiverExecutor,
                             chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                             ended: @escaping @Sendable (Errno?) -> Void) -> any DeviceReading {
        let loop = executor.eventLoop ?? nextLoop()
        let handler = DeviceChannelHandler(executor: executor, loop: loop, chunk: chunk, ended: ended)
        var channel: EventLoopFuture<any Channel>?
        let open = {
            let opened = NIOPipeBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .takingOwnershipOfDescriptor(input: descriptor)
            // A failed future leaves the descriptor to us.
            opened.whenFailure { error in
                Syscall.close(descriptor)
                handler.fail(error)
            }
            channel = opened
        }
        if let lifetime { lifetime.whileRunning(open) } else { open() }
        guard let channel else {
            // The loops have shut down: the device is closed at once.
            Syscall.close(descriptor)
            handler.fail(ChannelError.ioOnClosedChannel)
            return EventLoopDeviceReading(channel: nil, handler: handler, lifetime: lifetime)
        }
        return EventLoopDeviceReading(channel: channel, handler: handler, lifetime: lifetime)
    }
}

/// The lifetime of event loops that may shut down while devices are read on them.
package protocol EventLoopLifetime: Sendable {
    /// Runs `body`, which puts work on one of the loops, if they still run: whether it ran.
    @discardableResult
    func whileRunning(_ body: () -> Void) -> Bool
}

/// One device read by a channel on an event loop (a pipe channel for a device or a datagram
/// socket, a socket channel for a TCP connection).
struct EventLoopDeviceReading: DeviceReading {
    /// `nil` when the loops had shut down before it opened.
    let channel: EventLoopFuture<any Channel>?
    let handler: DeviceChannelHandler
    let lifetime: (any EventLoopLifetime)?

    func stop(released: @escaping @Sendable () -> Void) {
        handler.stop()
        guard let channel else { return released() }
        let close = {
            // Closed at once when its handler has it: this also abandons a connection under
            // way, whose future completes only once it is made, fails or times out.
            let closing = handler.channel
            closing?.close(promise: nil)
            channel.whenComplete { result in
                guard let channel = (try? result.get()) ?? handler.channel else { return released() }
                if closing == nil { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in released() }
            }
        }
        guard let lifetime else { return close() }
        // Once the loops have shut down, their shutdown has closed the channel already.
        if !lifetime.whileRunning(close) { released() }
    }
}
