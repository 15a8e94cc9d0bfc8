import NIOCore
import NIOWebSocket

/// A page's live feed once its WebSocket is open: the lines the page's ``ClientConnection``
/// writes (gpsd JSON, as to any gpsd client) go out as text frames, one frame per write (a
/// SKY and a TPV of one epoch share one frame, one object per line). The page sends nothing:
/// a data frame from it closes the connection (policy violation), never reaches the session.
final class WebSocketFeedHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = Never
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            // Echoes the peer's close, then closes.
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode() ?? .normalClosure
            close(context: context, code: code)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            break
        default:
            close(context: context, code: .policyViolation)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: unwrapOutboundIn(data))
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    private func close(context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }
}
