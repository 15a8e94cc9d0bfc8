import GPSDProtocol
import NIOCore
import NMEAStream
import Synchronization
import Platform

/// One connected client: its requests through gpsd's protocol (``ClientSession``), the
/// devices it watches, and the lines sent to it.
///
/// Lines from devices arrive on the devices' queues and are written on the client's event
/// loop. A client that does not read never holds anything up: while more than
/// ``GPSDServer/Configuration/clientBacklog`` bytes wait for it (NIO's high watermark: the
/// channel is not writable), further reports are dropped (counted), and once they have waited
/// that way for ``GPSDServer/Configuration/slowClientTimeout`` it is disconnected.
///
/// Replies count against the same bound: while the backlog is full, no request is answered
/// and nothing more is read from the client (NIO's `BackPressureHandler` in front stops
/// reading), so a client that floods requests and never reads its replies holds at most the
/// backlog and one read of requests. A client that watches nothing and has not completed a
/// request for ``GPSDServer/Configuration/requestTimeout`` is let go, as gpsd lets go one
/// that has not issued a command: bytes that never make a request do not count.
///
/// A client of the plain NMEA feed (``GPSDServer/Configuration/nmeaFeed``) is one too, with
/// the same bounds: it watches every device's sentences from the start, is never answered
/// (what it sends is read and dropped), and is sent no notices. So is the page's feed: gpsd's
/// JSON of every device from the start, as gpsd answers a client that watches everything
/// (`VERSION`, `DEVICES`, `WATCH`, then the reports and notices), and nothing it sends taken as
/// a request.
final class ClientConnection: DeviceWatcher, @unchecked Sendable {
    /// Which protocol the client speaks.
    enum Role {
        /// gpsd's: requests, replies, reports and notices (the gpsd port).
        case gpsd
        /// Plain NMEA 0183: every device's sentences as received, and nothing else.
        case nmeaFeed
        /// The live page's feed: gpsd's JSON of every device, watched from the start; no
        /// requests.
        case page
    }

    let role: Role
    private let channel: Channel
    private unowned let server: any ClientContext
    // Confined to the channel's event loop.
    private var session = ClientSession()
    private var reader: RequestReader
    private var requests = RequestBudget()
    /// Bytes read and not yet taken as requests: what came in while the backlog was full.
    private var unread: [UInt8] = []
    /// When the last request was completed (or the client connected).
    private var lastRequest = NIODeadline.now()
    private var requestTimer: Scheduled<Void>?
    /// When the backlog last became full, while it is.
    private var fullSince: NIODeadline?
    private var isClosed = false
    /// Whether it is being disconnected for not reading.
    private var isLetGo = false
    /// Whether a flush is queued on the loop (``flushSoon()``).
    private var isFlushScheduled = false
    /// Whether ``answerRequests()`` runs: a write may make NIO read again, or say the
    /// channel is writable, before it returns; what comes then waits for its loop.
    private var isAnswering = false
    /// What the devices' queues read: the client's policy as of its last request.
    private let policy = Protected(WatchPolicy())
    /// Reports dropped because the client did not read.
    let dropped = Atomic<Int>(0)

    init(channel: Channel, server: any ClientContext, role: Role = .gpsd) {
        self.role = role
        self.channel = channel
        self.server = server
        reader = RequestReader(maximumLength: server.configuration.maximumRequestLength)
    }

    /// The event loop its connection lives on.
    var eventLoop: EventLoop? { channel.eventLoop }

    /// On connect: the `VERSION` line, as gpsd sends it; a feed's client watches every
    /// device's sentences at once, and the page's their JSON.
    func start() {
        switch role {
        case .gpsd:
            write(ServerReply.version(server.configuration.version).line)
            scheduleRequestCheck(after: server.configuration.requestTimeout)
        case .nmeaFeed:
            var everything = WatchPolicy()
            everything.enable = true
            everything.nmea = true
            policy.withLock { $0 = everything }
            server.watch(self)
        case .page:
            write(ServerReply.version(server.configuration.version).line)
            var everything = WatchPolicy()
            everything.enable = true
            everything.json = true
            let step = session.watch(everything, server: server.snapshot())
            policy.withLock { $0 = session.policy }
            server.watch(self)
            for reply in step.replies { write(reply.line) }
        }
    }

    /// Bytes the client sent (on the event loop): its requests are answered in order, while
    /// it reads its replies.
    func receive(_ bytes: ByteBuffer) {
        guard !isClosed, role == .gpsd else { return }
        unread.append(contentsOf: bytes.readableBytesView)
        answerRequests()
    }

    /// Answers the requests in what was read, one at a time, until the backlog is full.
    private func answerRequests() {
        guard !isAnswering else { return }
        isAnswering = true
        defer { isAnswering = false }
        var offset = 0
        // `unread` may grow meanwhile (a read within a write): the loop sees it.
        while offset < unread.count, channel.isWritable, !isClosed {
            let (result, consumed) = unread.withUnsafeBytes { reader.next(in: UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            offset += consumed
            guard let result else { continue }
            lastRequest = .now()
            let request: Result<ClientRequest, ProtocolError> = requests.allow() ? result : .failure(.tooManyRequests)
            let step = session.handle(request, server: server.snapshot())
            if step.watchChanged {
                policy.withLock { $0 = session.policy }
                // Attached before the answer goes, as gpsd does: a client that has its WATCH
                // answer gets every report read after it.
                server.watch(self)
            }
            for reply in step.replies { write(reply.line) }
        }
        // Closed meanwhile (a write failed): `unread` was emptied.
        unread.removeFirst(min(offset, unread.count))
        if unread.isEmpty, unread.capacity > 4096 { unread = [] }
        policy.withLock { $0 = session.policy }
    }

    /// The client went away (on the event loop): it watches nothing more.
    func closed() {
        isClosed = true
        requestTimer?.cancel()
        unread = []
        server.remove(self)
    }

    /// Lets the client go once it has watched nothing and completed no request for the
    /// request time-out.
    private func scheduleRequestCheck(after delay: Duration) {
        requestTimer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay.clampedNanoseconds))) { [self] in
            guard !isClosed else { return }
            let timeout = server.configuration.requestTimeout
            let idle = NIODeadline.now() - lastRequest
            if session.policy.enable {
                scheduleRequestCheck(after: timeout)
            } else if idle >= .nanoseconds(Int64(timeout.clampedNanoseconds)) {
                server.countRefusal(\.timedOut)
                channel.close(promise: nil)
            } else {
                scheduleRequestCheck(after: timeout - .nanoseconds(idle.nanoseconds))
            }
        }
    }

    /// What the client is sent from the device at `path` (on any thread); `nil` when it does
    /// not watch it.
    func streams(from path: String) -> WatchedStreams? { policy.withLock { $0.streams(from: path) } }

    /// A line for the client (a notice: gpsd's `DEVICE`), from any thread; none for the NMEA
    /// feed's.
    func notify(_ line: [UInt8]) {
        guard role != .nmeaFeed else { return }
        // deliver(_:) hops to the loop when called off it: in this call when on it, so that
        // a notice keeps its place before the reports that follow it.
        deliver(channel.allocator.buffer(bytes: line))
    }

    /// A report for the client, on its event loop. While NIO holds more than the backlog for
    /// it (the channel is not writable), reports are dropped and counted; once that has
    /// lasted ``GPSDServer/Configuration/slowClientTimeout``, the client is disconnected.
    ///
    /// `coalescing`: one of several small writes that come together (a chunk's sentences, in
    /// NMEA or raw mode, six or more an epoch): flushed once what is queued on the loop now
    /// has run, so that they go out in one system call, not one each (at 60 NMEA clients
    /// this cut the server's CPU and the latency to the epoch's last sentence by 60%:
    /// Benchmarks/README.md, "The NMEA feed"). A report (an epoch's SKY and TPV, one buffer) is
    /// flushed at once.
    func deliver(_ buffer: ByteBuffer, coalescing: Bool = false) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { [self] in deliver(buffer, coalescing: coalescing) }
            return
        }
        guard !isClosed else { return }
        guard channel.isWritable else {
            dropped.add(1, ordering: .relaxed)
            let now = NIODeadline.now()
            let since = fullSince ?? now
            fullSince = since
            if now - since >= .nanoseconds(Int64(server.configuration.slowClientTimeout.clampedNanoseconds)), !isLetGo {
                isLetGo = true
                server.countRefusal(\.slowClients)
                channel.close(promise: nil)
            }
            return
        }
        if coalescing {
            channel.write(buffer, promise: nil)
            flushSoon()
        } else {
            channel.writeAndFlush(buffer, promise: nil)
        }
    }

    /// Flushes once what is queued on the loop now has run.
    private func flushSoon() {
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        channel.eventLoop.execute { [self] in
            isFlushScheduled = false
            channel.flush()
        }
    }

    /// The backlog fell under NIO's low watermark (on the event loop): the requests that
    /// waited are answered.
    func writable() {
        fullSince = nil
        if !unread.isEmpty { answerRequests() }
    }

    /// A reply: written (it answers the client), counted in the backlog; no request is
    /// answered while the backlog is full.
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
