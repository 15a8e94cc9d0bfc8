import Dispatch
import NIOCore
import NIOPosix
import Platform
import Synchronization

/// A TCP connection to a receiver, a caster or an upstream gpsd, made and read by SwiftNIO on
/// one of a read loop's event loops, as a serial device is read.
///
/// Nothing is read until ``start(greeting:)``: what is said of the connection once it is made
/// comes before what it brings. Bytes written to it (corrections, a position for a caster)
/// wait in the channel up to ``DeviceWriter/backlogLimit``; past that they are dropped whole.
final class TCPReceiverConnection: Sendable {
    private let channel: EventLoopFuture<any Channel>
    private let handler: DeviceChannelHandler
    private let lifetime: (any EventLoopLifetime)?
    /// Bytes handed to the channel and not yet written to the socket.
    private let backlog = Atomic<Int>(0)
    /// Why writing failed, after which nothing more is written.
    private let writeFailure = Protected<Errno?>(nil)
    /// The channel, once connected: what ``write(_:)`` writes to.
    private let connected = Protected<(any Channel)?>(nil)

    /// Connects to `address` on one of `readLoop`'s loops, failing after `timeout`.
    ///
    /// - Parameters:
    ///   - settled: called once on `queue` when the connection is made (`nil`), before any of
    ///     its bytes, or has failed (its errno; ``Errno/timedOut`` past the timeout).
    ///   - chunk, ended: as for ``DeviceReadLoop/startReading(_:on:chunk:ended:)``; not called
    ///     for a connection that failed.
    init(to address: SocketAddress, timeout: Duration, readLoop: EventLoopDeviceReadLoop, queue: DispatchQueue,
         settled: @escaping @Sendable (Errno?) -> Void,
         chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, ended: @escaping @Sendable (Errno?) -> Void) {
        let loop = readLoop.nextLoop()
        // Told from the channel's activation, on its loop, before anything is read (a peer that
        // sends and closes at once is read to its end as soon as the connection is made, even
        // with reading off); told after the future instead, it could come after those bytes.
        let handler = DeviceChannelHandler(queue: queue, inline: readLoop.handsOverInline, chunk: chunk, ended: ended,
                                           active: { settled(nil) })
        var channel: EventLoopFuture<any Channel>?
        let open = {
            channel = ClientBootstrap(group: loop)
                .connectTimeout(.nanoseconds(Int64(clamping: timeout.clampedNanoseconds)))
                .channelOption(.autoRead, value: false)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
                }
                .connect(to: address)
        }
        if let lifetime = readLoop.lifetime { lifetime.whileRunning(open) } else { open() }
        // The loops have shut down: a connection that failed at once.
        self.channel = channel ?? loop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        self.handler = handler
        lifetime = readLoop.lifetime
        self.channel.whenComplete { [connected] result in
            switch result {
            case .success(let channel): connected.withLock { $0 = channel }
            case .failure(let error): queue.async { settled(Self.errno(of: error)) }
            }
        }
    }

    /// Sends `greeting` first, when given, then reads: what came before this is handed on now.
    func start(greeting: [UInt8]?) {
        channel.whenSuccess { [handler] channel in
            handler.release()
            if let greeting { channel.writeAndFlush(ByteBuffer(bytes: greeting), promise: nil) }
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in channel.close(promise: nil) }
        }
    }

    /// What stops the reading and closes the connection, made or not.
    var reading: any DeviceReading { EventLoopDeviceReading(channel: channel, handler: handler, lifetime: lifetime) }

    /// Writes `bytes` whole after what waits, or drops them whole.
    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        if let failure = writeFailure.withLock({ $0 }) { return .dropped(.failed(failure)) }
        guard let channel = connected.withLock({ $0 }) else { return .dropped(.notOpen) }
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

    /// The errno behind a connection's failure.
    private static func errno(of error: any Error) -> Errno {
        if let error = error as? IOError { return Errno(rawValue: error.errnoCode) }
        if let error = error as? Errno { return error }
        if case .connectTimeout = error as? ChannelError { return .timedOut }
        return .ioError
    }
}
