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
            close(context: context, code: Self.reply(toClose: frame.unmaskedData))
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

    /// The code to answer a peer's close frame with (RFC 6455, 5.5.1 and 7.4): its own code
    /// echoed; 1000 for a close with none; 1002 (protocol error) for a one-byte payload or a
    /// code no endpoint may send (below 1000, 1004 to 1006, 1015, 1016 to 2999, 5000 and
    /// up); 1007 for a reason that is not UTF-8.
    static func reply(toClose payload: ByteBuffer) -> WebSocketErrorCode {
        var payload = payload
        guard payload.readableBytes > 0 else { return .normalClosure }
        guard let raw = payload.readInteger(as: UInt16.self) else { return .protocolError }
        switch raw {
        case 1000...1003, 1007...1014, 3000...4999: break
        default: return .protocolError
        }
        guard payload.readBytes(length: payload.readableBytes).map({ String(validating: $0, as: UTF8.self) != nil }) ?? true else {
            return .dataInconsistentWithMessage
        }
        return WebSocketErrorCode(codeNumber: Int(raw))
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
