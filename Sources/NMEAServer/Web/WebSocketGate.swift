import NIOCore
import NIOHTTP1

/// Stands before NIO's upgrade handler: a request for a WebSocket that the
/// ``WebRequestPolicy`` refuses (another site's page, a name that is not loopback, a path
/// other than the feed's) goes on as a plain request, without its `Upgrade` header, and the
/// ``HTTPPageHandler`` answers it (403 or 404). Refused in NIO's upgrader instead, it would
/// only see its connection closed.
final class WebSocketGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let policy: WebRequestPolicy

    init(policy: WebRequestPolicy) { self.policy = policy }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") else {
            return context.fireChannelRead(data)
        }
        if !Self.isFeed(head.uri) || !policy.allowsFeed(head) {
            head.headers.remove(name: "upgrade")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// Whether `uri` is the feed's path (a query left aside).
    static func isFeed(_ uri: String) -> Bool {
        uri.prefix { $0 != "?" && $0 != "#" } == WebResource.feedPath
    }
}
