import NIOCore
import NIOHTTP1

/// Answers the page's HTTP requests: `GET` (or `HEAD`) of a file of ``WebResource/byPath``;
/// 404 for any other path, 405 for any other method, 403 for a request the
/// ``WebRequestPolicy`` refuses, 400 for one with more than one `Host`. The feed's WebSocket upgrade is handled before this; a
/// request for the feed that gets here was refused.
final class HTTPPageHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let policy: WebRequestPolicy
    private var head: HTTPRequestHead?
    /// A request whole, not answered yet: the client has not read what was answered before.
    private var waiting: HTTPRequestHead?

    init(policy: WebRequestPolicy) { self.policy = policy }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            // A client that pipelines requests and reads none of the answers would otherwise
            // have the page written for each: at most one answer waits past the backlog (NIO's
            // pipelining handler passes on the next request once this one is answered).
            guard context.channel.isWritable else {
                waiting = head
                return
            }
            respond(to: head, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let waiting {
            self.waiting = nil
            respond(to: waiting, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        // Two Host headers: which one names the server is anyone's guess (RFC 9112, 3.2).
        guard head.headers[canonicalForm: "host"].count <= 1 else {
            return send(.badRequest, "One Host header, please.\n", head: head, context: context)
        }
        guard policy.allowsHost(head) else {
            return send(.forbidden, "This server answers only requests addressed to localhost.\n", head: head, context: context)
        }
        if path == WebResource.feedPath {
            return send(.forbidden, "The live feed is a WebSocket, for the page served from this address.\n", head: head, context: context)
        }
        guard let resource = WebResource.byPath[path] else {
            return send(.notFound, "Not found.\n", head: head, context: context)
        }
        guard head.method == .GET || head.method == .HEAD else {
            return send(.methodNotAllowed, "Only GET and HEAD.\n", head: head, context: context, extra: [("Allow", "GET, HEAD")])
        }
        send(.ok, resource.body, contentType: resource.contentType, head: head, context: context)
    }

    private func send(_ status: HTTPResponseStatus, _ body: String, contentType: String = "text/plain; charset=utf-8",
                      head request: HTTPRequestHead, context: ChannelHandlerContext, extra: [(String, String)] = []) {
        let buffer = context.channel.allocator.buffer(string: body)
        var headers = HTTPHeaders([
            ("Content-Type", contentType),
            ("Content-Length", String(buffer.readableBytes)),
            ("Cache-Control", "no-store"),
            // Only what the binary carries: no inline script, nothing from elsewhere.
            ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ])
        headers.add(contentsOf: extra)
        let keepAlive = request.isKeepAlive && status == .ok
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let response = HTTPResponseHead(version: request.version, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        if request.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil) }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
