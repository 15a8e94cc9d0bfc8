import Dispatch
import NIOCore
import NIOPosix
import NMEAStream
import Synchronization
import Platform

/// Reads served devices on the server's event loops, as gpsd reads its devices in its one
/// select loop: the thread the device's bytes wake is the one that decodes them and writes
/// the reports to the clients on that loop, with no hand-over between threads (a Dispatch
/// read source costs two: Dispatch's event thread wakes a worker, which hands each report to
/// the clients' loop).
///
/// A device is read on the loop of a client watching it when it opens (``prefer(_:)``): the
/// one that opened it, so that with one watcher the device and its client share a thread;
/// clients on other loops get each report through one task per loop.
///
/// The device's descriptor is handed to a pipe channel, which owns it: closing the channel
/// closes the device.
final class EventLoopDeviceReadLoop: DeviceReadLoop {
    private let group: EventLoopGroup
    /// The server's loops' lifetime, when a server owns `group`: a device is not opened, nor
    /// its channel closed, on a loop that has shut down (the shutdown closed it).
    private let loops: ServerLoops?
    /// The loop the next device opened is read on; `nil` for the group's next.
    private let preferred = Protected<EventLoop?>(nil)

    init(group: EventLoopGroup, loops: ServerLoops? = nil) {
        self.group = group
        self.loops = loops
    }

    /// No event loop's thread waits: a device is released on its loop.
    var mayWaitForRelease: Bool { MultiThreadedEventLoopGroup.currentEventLoop == nil }

    /// Reads the next device opened on `loop`.
    func prefer(_ loop: EventLoop) { preferred.withLock { $0 = loop } }

    func startReading(_ descriptor: Int32, on queue: DispatchQueue,
                      chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      ended: @escaping @Sendable (Errno?) -> Void) -> any DeviceReading {
        let loop = preferred.withLock { $0 } ?? group.next()
        let handler = DeviceChannelHandler(queue: queue, chunk: chunk, ended: ended)
        var channel: EventLoopFuture<Channel>?
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
        if let loops { loops.whileRunning(open) } else { open() }
        guard let channel else {
            // The server has stopped: the device is closed at once.
            Syscall.close(descriptor)
            handler.fail(ChannelError.ioOnClosedChannel)
            return EventLoopDeviceReading(channel: nil, handler: handler, loops: loops)
        }
        return EventLoopDeviceReading(channel: channel, handler: handler, loops: loops)
    }
}

/// One device read by a pipe channel on an event loop.
private struct EventLoopDeviceReading: DeviceReading {
    /// `nil` when the server had stopped before it opened.
    let channel: EventLoopFuture<Channel>?
    let handler: DeviceChannelHandler
    let loops: ServerLoops?

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
        guard let loops else { return close() }
        // After the server stopped, its loops' shutdown has closed the channel already.
        if !loops.whileRunning(close) { released() }
    }
}

/// Hands each read's bytes to the reader, on the loop's thread, inside `queue.sync` (with the
/// reader's queue idle, Dispatch runs the block on the calling thread: no hop); tells it once
/// when the channel ends by itself.
private final class DeviceChannelHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let queue: DispatchQueue
    private let chunk: @Sendable (UnsafeRawBufferPointer) -> Void
    private let ended: @Sendable (Errno?) -> Void
    /// Whether the reader stopped it, or it was already told of the end.
    private let isOver = Atomic<Bool>(false)
    /// The error the channel last caught (a read's errno), told when it ends.
    private let failure = Protected<Errno?>(nil)

    init(queue: DispatchQueue, chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
         ended: @escaping @Sendable (Errno?) -> Void) {
        self.queue = queue
        self.chunk = chunk
        self.ended = ended
    }

    func stop() { isOver.store(true, ordering: .relaxed) }

    func fail(_ error: any Error) {
        remember(error)
        end()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard !isOver.load(ordering: .relaxed) else { return }
        bytes.withUnsafeReadableBytes { bytes in queue.sync { chunk(bytes) } }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        remember(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) { end() }

    private func end() {
        guard !isOver.exchange(true, ordering: .relaxed) else { return }
        let failure = failure.withLock { $0 }
        queue.async { [ended] in ended(failure) }
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
