import Dispatch
import NIOCore
import NIOPosix
import Platform
import Synchronization

/// A network receiver's channel, made and read by SwiftNIO on one of a read loop's event loops
/// as a serial device is read: a TCP connection to a receiver, a caster or an upstream gpsd
/// (``connecting(to:timeout:readLoop:executor:settled:chunk:ended:)``), or a UDP socket that
/// datagrams come to (``listening(on:joining:readLoop:executor:settled:chunk:ended:)``).
///
/// Nothing is handed on until ``start(greeting:)``: what is said of the connection once it is
/// made comes before what it brings. Bytes written to a TCP connection (corrections, a
/// position for a caster) wait in the channel up to ``DeviceWriter/backlogLimit``; past that
/// they are dropped whole.
final class NetworkReceiverChannel: Sendable {
    private let channel: EventLoopFuture<any Channel>
    private let handler: DeviceChannelHandler
    private let lifetime: (any EventLoopLifetime)?
    /// Bytes handed to the channel and not yet written to the socket.
    private let backlog = Atomic<Int>(0)
    /// Why writing failed, after which nothing more is written.
    private let writeFailure = Protected<Errno?>(nil)
    /// The channel, once made: what ``write(_:)`` writes to.
    private let made = Protected<(any Channel)?>(nil)

    /// Connects to `address` on the executor's loop, when it is one, or on one of `readLoop`'s
    /// loops, failing after `timeout`.
    ///
    /// - Parameters:
    ///   - settled: called once on `executor` when the connection is made (`nil`) or has failed
    ///     (its errno; ``Errno/timedOut`` past the timeout).
    ///   - chunk, ended: as for ``DeviceReadLoop/startReading(_:on:chunk:ended:)``, from
    ///     ``start(greeting:)`` on; not called for a connection that failed.
    static func connecting(to address: SocketAddress, timeout: Duration, readLoop: EventLoopDeviceReadLoop,
                           executor: any ReceiverExecutor, settled: @escaping @Sendable (Errno?) -> Void,
                           chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                           ended: @escaping @Sendable (Errno?) -> Void) -> NetworkReceiverChannel {
        NetworkReceiverChannel(readLoop: readLoop, executor: executor, settled: settled, chunk: chunk, ended: ended) { loop, handler in
            ClientBootstrap(group: loop)
                .connectTimeout(.nanoseconds(Int64(clamping: timeout.clampedNanoseconds)))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .connect(to: address)
        }
    }

    /// Binds a UDP socket to `address`, letting other programs bind the same port too (a chart
    /// plotter may listen for the same datagrams), and joins the multicast `group` when given,
    /// on the interface the system chooses. `settled`, `chunk` and `ended` as for
    /// ``connecting(to:timeout:readLoop:executor:settled:chunk:ended:)``; each datagram is a chunk.
    static func listening(on address: SocketAddress, joining group: SocketAddress?, readLoop: EventLoopDeviceReadLoop,
                          executor: any ReceiverExecutor, settled: @escaping @Sendable (Errno?) -> Void,
                          chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                          ended: @escaping @Sendable (Errno?) -> Void) -> NetworkReceiverChannel {
        NetworkReceiverChannel(readLoop: readLoop, executor: executor, settled: settled, chunk: chunk, ended: ended) { loop, handler in
            DatagramBootstrap(group: loop)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                // A multicast group's port is shared by every member on this machine (and an
                // IPv6 port, whose any-address takes IPv4's datagrams too).
                .channelOption(.socketOption(NIOBSDSocket.Option(rawValue: Syscall.reusePortOption)),
                               value: group != nil || address.protocol == .inet6 ? 1 : 0)
                // A datagram is read whole or cut: room for the largest.
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(DatagramPayloads(), handler)
                    }
                }
                .bind(to: address)
                .flatMap { channel in
                    guard let group else { return channel.eventLoop.makeSucceededFuture(channel) }
                    guard let multicast = channel as? any MulticastChannel else {
                        return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
                    }
                    return multicast.joinGroup(group).map { channel }.flatMapError { error in
                        channel.close().flatMapThrowing { throw error }
                    }
                }
        }
    }

    private init(readLoop: EventLoopDeviceReadLoop, executor: any ReceiverExecutor, settled: @escaping @Sendable (Errno?) -> Void,
                 chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, ended: @escaping @Sendable (Errno?) -> Void,
                 make: (any EventLoop, DeviceChannelHandler) -> EventLoopFuture<any Channel>) {
        let loop = executor.eventLoop ?? readLoop.nextLoop()
        let handler = DeviceChannelHandler(executor: executor, loop: loop, chunk: chunk, ended: ended, holdsInput: true)
        var channel: EventLoopFuture<any Channel>?
        if let lifetime = readLoop.lifetime {
            lifetime.whileRunning { channel = make(loop, handler) }
        } else {
            channel = make(loop, handler)
        }
        // The loops have shut down: a channel that failed at once.
        self.channel = channel ?? loop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        self.handler = handler
        lifetime = readLoop.lifetime
        self.channel.whenComplete { [made] result in
            switch result {
            case .success(let channel):
                made.withLock { $0 = channel }
                executor.schedule { settled(nil) }
            case .failure(let error):
                executor.schedule { settled(Self.errno(of: error)) }
            }
        }
    }

    /// Sends `greeting` first, when given, then hands on what came and what comes.
    func start(greeting: [UInt8]?) {
        channel.whenSuccess { [handler] channel in
            if let greeting { channel.writeAndFlush(ByteBuffer(bytes: greeting), promise: nil) }
            handler.release()
        }
    }

    /// What stops the reading and closes the channel, made or not.
    var reading: any DeviceReading { EventLoopDeviceReading(channel: channel, handler: handler, lifetime: lifetime) }

    /// Writes `bytes` whole after what waits, or drops them whole.
    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        if let failure = writeFailure.withLock({ $0 }) { return .dropped(.failed(failure)) }
        guard let channel = made.withLock({ $0 }) else { return .dropped(.notOpen) }
        let count = bytes.count
        let (reserved, _) = backlog.add(count, ordering: .relaxed)
        guard reserved <= DeviceWriter.backlogLimit else {
            backlog.subtract(count, ordering: .relaxed)
            return .dropped(.backlogFull)
        }
        channel.writeAndFlush(ByteBuffer(bytes: bytes)).whenComplete { [self] result in
            backlog.subtract(count, ordering: .relaxed)
            if case .failure(let error) = result {
                writeFailure.withLock { $0 = $0 ?? Self.errno(of: error) }
            }
        }
        return .written
    }

    /// The errno behind a channel's failure.
    private static func errno(of error: any Error) -> Errno {
        if let error = error as? IOError { return Errno(rawValue: error.errnoCode) }
        if let error = error as? Errno { return error }
        if case .connectTimeout = error as? ChannelError { return .timedOut }
        return .ioError
    }
}

/// A datagram's bytes, without the address it came from.
private final class DatagramPayloads: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(wrapInboundOut(unwrapInboundIn(data).data))
    }
}
