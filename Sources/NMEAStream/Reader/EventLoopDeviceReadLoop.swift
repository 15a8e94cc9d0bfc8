import Dispatch
import NIOCore
import NIOPosix
import Synchronization
import Platform

/// Reads devices on SwiftNIO's event loops: each device's descriptor is handed to a pipe
/// channel, which owns it (closing the channel closes the device), and the loop's epoll tells
/// it when bytes arrive.
///
/// The library's readers use one on NIO's shared loops (``init()``): their bytes are read there
/// and handed to each reader's queue. A program that runs event loops of its own can read its
/// devices on them instead (``init(group:)``): then the thread the device's bytes wake is the
/// one that decodes them, as gpsd reads its devices in its one select loop (the gpsd-protocol
/// server does this: a report reaches a client on the thread that read it).
///
/// Dispatch read sources are not used: on Linux, libdispatch's epoll bookkeeping can free a
/// registration that is still reachable when sources on descriptors come and go from several
/// threads at once (swift-corelibs-libdispatch issue 949), and the process then crashes on
/// Dispatch's event thread. Devices opened and closed as subscribers come and go are that churn.
public final class EventLoopDeviceReadLoop: DeviceReadLoop {
    private let group: any EventLoopGroup
    private let handsOverInline: Bool
    /// The loops' lifetime, when the group's owner may shut them down while devices are read
    /// (a server): nothing is put on a loop that has shut down (its shutdown closed the device).
    private let lifetime: (any EventLoopLifetime)?
    /// The loop the next device opened is read on; `nil` for the group's next.
    private let preferred = Protected<(any EventLoop)?>(nil)

    /// Reads devices on SwiftNIO's shared event loops (`NIOSingletons.posixEventLoopGroup`),
    /// handing each read's bytes to the reader's queue: a slow reader never holds a loop.
    public convenience init() {
        self.init(group: NIOSingletons.posixEventLoopGroup, lifetime: nil, handsOverInline: false)
    }

    /// Reads devices on `group`'s loops, and decodes their bytes there: each read's bytes are
    /// handed to the reader's queue with `sync` (with that queue idle, Dispatch runs the work on
    /// the calling thread). `group` must run for as long as a reader reads with this loop.
    public convenience init(group: any EventLoopGroup) {
        self.init(group: group, lifetime: nil, handsOverInline: true)
    }

    /// Reads devices on `group`'s loops, within `lifetime` when given; decoded on the loop when
    /// `handsOverInline`, on the reader's queue otherwise.
    package init(group: any EventLoopGroup, lifetime: (any EventLoopLifetime)?, handsOverInline: Bool) {
        self.group = group
        self.lifetime = lifetime
        self.handsOverInline = handsOverInline
    }

    /// No event loop's thread waits: a device is released on its loop.
    public var mayWaitForRelease: Bool { MultiThreadedEventLoopGroup.currentEventLoop == nil }

    /// Reads the next device opened on `loop`.
    package func prefer(_ loop: any EventLoop) { preferred.withLock { $0 = loop } }

    public func startReading(_ descriptor: Int32, on queue: DispatchQueue,
                             chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                             ended: @escaping @Sendable (Errno?) -> Void) -> any DeviceReading {
        let loop = preferred.withLock { $0 } ?? group.next()
        let handler = DeviceChannelHandler(queue: queue, inline: handsOverInline, chunk: chunk, ended: ended)
        var channel: EventLoopFuture<any Channel>?
        // A datagram is read whole or cut: a UDP socket is read into room for the largest, not
        // into the stream's buffer, which shrinks after small reads (to 64 bytes, shorter than
        // a sentence).
        let allocator: any RecvByteBufferAllocator = Syscall.isDatagramSocket(descriptor)
            ? FixedSizeRecvByteBufferAllocator(capacity: 65_536) : AdaptiveRecvByteBufferAllocator()
        let open = {
            let opened = NIOPipeBootstrap(group: loop)
                .channelOption(.recvAllocator, value: allocator)
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

/// One device read by a pipe channel on an event loop.
private struct EventLoopDeviceReading: DeviceReading {
    /// `nil` when the loops had shut down before it opened.
    let channel: EventLoopFuture<any Channel>?
    let handler: DeviceChannelHandler
    let lifetime: (any EventLoopLifetime)?

    func stop(released: @escaping @Sendable () -> Void) {
        handler.stop()
        guard let channel else { return released() }
        let close = {
            channel.whenComplete { result in
                guard case .success(let channel) = result else { return released() }
                channel.close(promise: nil)
                channel.closeFuture.whenComplete { _ in released() }
            }
        }
        guard let lifetime else { return close() }
        // Once the loops have shut down, their shutdown has closed the channel already.
        if !lifetime.whileRunning(close) { released() }
    }
}

/// Hands each read's bytes to the reader on its queue, and tells it once when the channel ends
/// by itself.
private final class DeviceChannelHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let queue: DispatchQueue
    /// Whether bytes are handed over inside `queue.sync`, on the loop's thread when the queue
    /// is idle; with `queue.async` otherwise.
    private let inline: Bool
    private let chunk: @Sendable (UnsafeRawBufferPointer) -> Void
    private let ended: @Sendable (Errno?) -> Void
    /// Whether the reader stopped it, or it was already told of the end.
    private let isOver = Atomic<Bool>(false)
    /// Whether the reader stopped it (on its queue): what was handed to the queue before
    /// then is not told after it.
    private let isStopped = Atomic<Bool>(false)
    /// The error the channel last caught (a read's errno), told when it ends.
    private let failure = Protected<Errno?>(nil)

    init(queue: DispatchQueue, inline: Bool, chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
         ended: @escaping @Sendable (Errno?) -> Void) {
        self.queue = queue
        self.inline = inline
        self.chunk = chunk
        self.ended = ended
    }

    func stop() {
        isStopped.store(true, ordering: .relaxed)
        isOver.store(true, ordering: .relaxed)
    }

    func fail(_ error: any Error) {
        remember(error)
        end()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard !isOver.load(ordering: .relaxed) else { return }
        if inline {
            bytes.withUnsafeReadableBytes { bytes in queue.sync { chunk(bytes) } }
        } else {
            queue.async { [self] in
                guard !isStopped.load(ordering: .relaxed) else { return }
                bytes.withUnsafeReadableBytes { chunk($0) }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        remember(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) { end() }

    private func end() {
        guard !isOver.exchange(true, ordering: .relaxed) else { return }
        let failure = failure.withLock { $0 }
        queue.async { [self] in
            guard !isStopped.load(ordering: .relaxed) else { return }
            ended(failure)
        }
    }

    /// Keeps `error`'s errno (a read's, for NIO's `IOError`) to tell when the channel ends.
    private func remember(_ error: any Error) {
        let errno: Errno = switch error {
        case let error as Errno: error
        case let error as IOError: Errno(rawValue: error.errnoCode)
        default: .ioError
        }
        failure.withLock { $0 = errno }
    }
}
