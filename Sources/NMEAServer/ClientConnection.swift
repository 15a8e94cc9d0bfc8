import GPSDProtocol
import NIOCore
import NMEAStream
import Synchronization

/// One connected client: its requests through gpsd's protocol (``ClientSession``), the
/// devices it watches, and the lines sent to it.
///
/// Lines from devices arrive on the devices' queues and are written on the client's event
/// loop. A client that does not read never holds anything up: while more than
/// ``GPSDServer/Configuration/clientBacklog`` bytes wait for it (NIO's high watermark: the
/// channel is not writable), further reports are dropped (counted), and once they have waited
/// that way for ``GPSDServer/Configuration/slowClientTimeout`` it is disconnected.
final class ClientConnection: @unchecked Sendable {
    private let channel: Channel
    private unowned let server: GPSDServer
    // Confined to the channel's event loop.
    private var session = ClientSession()
    private var reader: RequestReader
    private var requests = RequestBudget()
    /// When the backlog last became full, while it is.
    private var fullSince: NIODeadline?
    private var isClosed = false
    /// What the devices' queues read: the client's policy as of its last request.
    private let policy = Mutex(WatchPolicy())
    /// Reports dropped because the client did not read.
    let dropped = Atomic<Int>(0)

    init(channel: Channel, server: GPSDServer) {
        self.channel = channel
        self.server = server
        reader = RequestReader(maximumLength: server.configuration.maximumRequestLength)
    }

    /// The event loop its connection lives on.
    var eventLoop: EventLoop { channel.eventLoop }

    /// On connect: the `VERSION` line, as gpsd sends it.
    func start() {
        write(ServerReply.version(server.configuration.version).line)
    }

    /// Bytes the client sent (on the event loop).
    func receive(_ bytes: ByteBuffer) {
        var replies: [ServerReply] = []
        var watchChanged = false
        bytes.withUnsafeReadableBytes { raw in
            reader.feed(raw) { request in
                let result: Result<ClientRequest, ProtocolError> = requests.allow() ? request : .failure(.tooManyRequests)
                let step = session.handle(result, server: server.snapshot())
                replies += step.replies
                watchChanged = watchChanged || step.watchChanged
            }
        }
        policy.withLock { $0 = session.policy }
        if watchChanged { server.watch(self) }
        for reply in replies { write(reply.line) }
    }

    /// The client went away (on the event loop): it watches nothing more.
    func closed() {
        isClosed = true
        server.remove(self)
    }

    /// Whether the client watches the device at `path` (on any thread).
    func watches(_ path: String) -> Bool { policy.withLock { $0.watches(path) } }

    func wantsJSON(from path: String) -> Bool { policy.withLock { $0.watches(path) && $0.json } }

    /// Sentences as received: in NMEA mode, or raw mode 1 (raw mode 2 has the bytes instead).
    func wantsSentences(from path: String) -> Bool {
        policy.withLock { $0.watches(path) && $0.raw < 2 && ($0.nmea || $0.raw == 1) }
    }

    /// The device's bytes unchanged: raw mode 2.
    func wantsBytes(from path: String) -> Bool { policy.withLock { $0.watches(path) && $0.raw == 2 } }

    /// A line for the client (a notice), from any thread.
    func send(_ line: [UInt8]) {
        let buffer = channel.allocator.buffer(bytes: line)
        channel.eventLoop.execute { [self] in deliver(buffer) }
    }

    /// A report for the client, on its event loop. While NIO holds more than the backlog for
    /// it (the channel is not writable), reports are dropped and counted; once that has
    /// lasted ``GPSDServer/Configuration/slowClientTimeout``, the client is disconnected.
    func deliver(_ buffer: ByteBuffer) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { [self] in deliver(buffer) }
            return
        }
        guard !isClosed else { return }
        guard channel.isWritable else {
            dropped.add(1, ordering: .relaxed)
            let now = NIODeadline.now()
            let since = fullSince ?? now
            fullSince = since
            if now - since >= .nanoseconds(Int64(server.configuration.slowClientTimeout.clampedNanoseconds)) {
                channel.close(promise: nil)
            }
            return
        }
        channel.writeAndFlush(buffer, promise: nil)
    }

    /// The backlog fell under NIO's low watermark (on the event loop).
    func writable() { fullSince = nil }

    /// A reply: always written (it answers the client), and counted in the backlog.
    private func write(_ line: String) {
        guard !isClosed else { return }
        channel.writeAndFlush(channel.allocator.buffer(string: line), promise: nil)
    }
}

/// At most so many requests a second from one client; past that, each gets an `ERROR`.
struct RequestBudget {
    static let perSecond = 100
    private var windowStart = ContinuousClock.now
    private var count = 0

    mutating func allow() -> Bool {
        let now = ContinuousClock.now
        if now - windowStart >= .seconds(1) {
            windowStart = now
            count = 0
        }
        count += 1
        return count <= Self.perSecond
    }
}

/// Hands a connection's bytes and its end to its ``ClientConnection``.
final class GPSDClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let connection: ClientConnection

    init(connection: ClientConnection) { self.connection = connection }

    func channelActive(context: ChannelHandlerContext) {
        connection.start()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.receive(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.closed()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { connection.writable() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
