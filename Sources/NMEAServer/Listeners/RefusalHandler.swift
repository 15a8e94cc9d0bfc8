import NIOCore

/// The whole pipeline of a connection refused at accept: says why once it is active, then
/// closes. (A write from the channel's initializer would come before the channel is
/// registered, and fail: the client would see the connection close without a word.)
final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let reason: String

    /// `reason`: the bytes to send, as they are (gpsd's `ERROR` line, or an HTTP response).
    init(reason: String) { self.reason = reason }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
        context.fireChannelActive()
    }

    /// What the client sends meanwhile is not read.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private var refused = false

    private func refuse(context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: reason))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

extension RefusalHandler {
    typealias OutboundOut = ByteBuffer
}
