import Dispatch
import NIOCore
import Platform
import Synchronization

/// Hands each read's bytes to the reader on its executor, and tells it once when the channel
/// ends by itself. When the reader's executor is the channel's own loop, the bytes are handed
/// over in the read's own call: decoded where they were read, with no copy and no hop.
final class DeviceChannelHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let executor: any ReceiverExecutor
    /// Whether the executor is the loop the channel reads on.
    private let onReadersLoop: Bool
    private let chunk: @Sendable (UnsafeRawBufferPointer) -> Void
    private let ended: @Sendable (Errno?) -> Void
    /// Whether the reader stopped it, or it was already told of the end.
    private let isOver = Atomic<Bool>(false)
    /// Whether the reader stopped it (on its executor): what was handed to the executor before
    /// then is not told after it.
    private let isStopped = Atomic<Bool>(false)
    /// The error the channel last caught (a read's errno), told when it ends.
    private let failure = Protected<Errno?>(nil)
    /// The channel, once the handler is in its pipeline (before a connection is made).
    private let added = Protected<(any Channel)?>(nil)
    /// What came before ``release()``, while the handler holds it (a connection's bytes until
    /// what is said of the connection is out); `nil` once it hands everything on.
    private let held: Protected<HeldInput?>
    /// Whether this handler holds input until ``release()`` (a network channel's): a
    /// device's reads then take no lock.
    private let holdsInput: Bool

    /// A handler for a channel on `loop`, handing its bytes to `executor`.
    init(executor: any ReceiverExecutor, loop: any EventLoop, chunk: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
         ended: @escaping @Sendable (Errno?) -> Void, holdsInput: Bool = false) {
        self.executor = executor
        onReadersLoop = executor.eventLoop === loop
        self.chunk = chunk
        self.ended = ended
        self.holdsInput = holdsInput
        held = Protected(holdsInput ? HeldInput() : nil)
    }

    /// The channel this handler is in, once it is.
    var channel: (any Channel)? { added.withLock { $0 } }

    func handlerAdded(context: ChannelHandlerContext) {
        added.withLock { $0 = context.channel }
    }

    func stop() {
        isStopped.store(true, ordering: .relaxed)
        isOver.store(true, ordering: .relaxed)
    }

    func fail(_ error: any Error) {
        remember(error)
        end()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        guard holdsInput else { return handOver(bytes) }
        let kept = held.withLock { held in
            guard held != nil else { return false }
            held?.chunks.append(bytes)
            return true
        }
        if !kept { handOver(bytes) }
    }

    /// Hands on what was held, and everything after it (on the channel's loop). Until then, a
    /// connection's bytes wait: a peer that sends and closes at once is read to its end (NIO
    /// drains a socket at its end whether reading is on or not), and those bytes would reach a
    /// server's clients, on this loop, before what the reader says of the connection (put on
    /// this loop by the reader's executor, meanwhile). What waits is at most what the kernel had
    /// buffered for the socket.
    func release() {
        guard let input = held.withLock({ held in defer { held = nil }; return held }) else { return }
        for bytes in input.chunks { handOver(bytes) }
        if input.hasEnded { end() }
    }

    private func handOver(_ bytes: ByteBuffer) {
        guard !isOver.load(ordering: .relaxed) else { return }
        if onReadersLoop {
            bytes.withUnsafeReadableBytes { chunk($0) }
        } else {
            executor.schedule { [self] in
                guard !isStopped.load(ordering: .relaxed) else { return }
                bytes.withUnsafeReadableBytes { chunk($0) }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        remember(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        guard holdsInput else { return end(onTheLoop: true) }
        let kept = held.withLock { held in
            guard held != nil else { return false }
            held?.hasEnded = true
            return true
        }
        if !kept { end(onTheLoop: true) }
    }

    /// Tells the reader that the channel ended. From `channelInactive`, on the channel's loop,
    /// when that loop is the reader's executor: in this call, since the loops' shutdown closes
    /// what is still open and a task put on a loop then is SwiftNIO's "Cannot schedule tasks
    /// on an EventLoop that has already shut down". Otherwise (a failure to open, told while
    /// the reader may still be opening) in a job of its own.
    private func end(onTheLoop: Bool = false) {
        guard !isOver.exchange(true, ordering: .relaxed) else { return }
        let failure = failure.withLock { $0 }
        let tell: @Sendable () -> Void = { [self] in
            guard !isStopped.load(ordering: .relaxed) else { return }
            ended(failure)
        }
        if onTheLoop, onReadersLoop { return tell() }
        executor.schedule(tell)
    }

    /// Keeps `error`'s errno (a read's, for NIO's `IOError`) to tell when the channel ends.
    private func remember(_ error: any Error) {
        let errno: Errno = switch error {
        case let error as Errno: error
        case let error as IOError: Errno(rawValue: error.errnoCode)
        default: .ioError
        }
        failure.withLock { $0 = errno }
    }
}

/// A connection's input held until what is said of the connection is out.
private struct HeldInput {
    var chunks: [ByteBuffer] = []
    /// Whether the channel ended meanwhile.
    var hasEnded = false
}
