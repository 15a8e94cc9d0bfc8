import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Platform

/// The live page's listener: `GET /` and its files, and the feed (`/feed`), a WebSocket
/// that carries the same gpsd JSON as the gpsd port (VERSION, DEVICES, then TPV, SKY and
/// DEVICE of every device). Each open feed is one more watcher of every device, a
/// ``ClientConnection`` in the page's role: a page alone keeps a device open, and closing
/// the last one (with no other watcher) closes it.
struct PageListener: ServerListener {
    var kind: GPSDServer.ListenError.Listener { .page }

    func configure(_ channel: Channel, for server: GPSDServer) throws {
        guard server.connectionOpened(channel, to: .page) else {
            server.countRefusal(\.tooManyClients)
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(reason: Self.tooManyClientsResponse))
            return
        }
        // Nothing more is read while what was answered is not (pongs and pages included).
        try channel.pipeline.syncOperations.addHandler(NIOCore.BackPressureHandler())
        let policy = WebRequestPolicy(isLoopback: channel.localAddress.map(Self.isLoopback) ?? false)
        let page = HTTPPageHandler(policy: policy)
        // Before the upgrade only: a connection that does not send a whole request in time is
        // let go; an open feed never sends anything, and stays.
        let deadline = RequestDeadlineHandler(timeout: server.configuration.httpRequestTimeout) { [weak server] in
            server?.countRefusal(\.timedOut)
        }
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 4096,
            automaticErrorHandling: true,
            // The gate let through only the feed's upgrades that the policy allows.
            shouldUpgrade: { channel, head in
                let allowed = WebSocketGate.isFeed(head.uri) && policy.allowsFeed(head)
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { [weak server] channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    guard let server else { return channel.close(promise: nil) }
                    try Self.openFeed(on: channel, for: server)
                }
            })
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.removeHandler(name: Self.pageHandlerName, promise: nil)
                context.pipeline.removeHandler(name: Self.deadlineHandlerName, promise: nil)
                context.pipeline.removeHandler(name: Self.gateHandlerName, promise: nil)
            }),
            withErrorHandling: true)
        let upgradeHandler = try channel.pipeline.syncOperations.handler(type: HTTPServerUpgradeHandler.self)
        try channel.pipeline.syncOperations.addHandler(WebSocketGate(policy: policy), name: Self.gateHandlerName, position: .before(upgradeHandler))
        try channel.pipeline.syncOperations.addHandler(deadline, name: Self.deadlineHandlerName, position: .before(upgradeHandler))
        try channel.pipeline.syncOperations.addHandler(page, name: Self.pageHandlerName)
    }

    /// What a page's connection past the limit is answered, before its request is read.
    static let tooManyClientsResponse = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: 17\r\nRetry-After: 10\r\nConnection: close\r\n\r\nToo many clients\n"

    private static let pageHandlerName = "nmeastream.page"
    private static let deadlineHandlerName = "nmeastream.deadline"
    private static let gateHandlerName = "nmeastream.gate"

    /// The page's feed: a client under the same bounds as any other, that watches every device
    /// in JSON from the start.
    private static func openFeed(on channel: Channel, for server: GPSDServer) throws {
        let connection = ClientConnection(channel: channel, server: server, role: .page)
        guard server.add(connection) else {
            var reason = channel.allocator.buffer(capacity: 32)
            reason.write(webSocketErrorCode: .unknown(1013))
            reason.writeString("Too many clients")
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason)).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        try channel.pipeline.syncOperations.addHandler(WebSocketFeedHandler())
        try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
        connection.start()
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4: return address.ipAddress?.hasPrefix("127.") ?? false
        case .v6: return address.ipAddress == "::1" || address.ipAddress?.hasPrefix("::ffff:127.") == true
        default: return false
        }
    }
}
