import Dispatch
import GPSDProtocol
import NIOCore
import NIOPosix
import NMEAStream
import Platform

/// The served devices' sentences as UDP datagrams (``GPSDServer/Configuration/nmeaDatagrams``),
/// as a boat's multiplexer sends them: each valid sentence unchanged, with CR LF, one per
/// datagram, to each destination (unicast, broadcast or a multicast group).
///
/// UDP has no receiver to wait for: a datagram the system cannot send at once (its buffer
/// full, no route) is counted and dropped, never queued, so a destination that is down holds
/// nothing up and fills no memory.
///
/// It watches every device served, as the NMEA feed's clients do: each device is read
/// whether anyone else listens or not, and one that fails is tried again while watched.
public final class NMEADatagramFeed: DeviceWatcher, Sendable {
    /// What was sent, and what was not.
    public struct Counts: Sendable, Equatable {
        /// Datagrams the system took.
        public var sent = 0
        /// Datagrams dropped: the socket's buffer was full, or the system refused them.
        public var unsent = 0
        /// Why the last one not sent was not (the system's error); `nil` when the buffer was full.
        public var lastFailure: String?

        /// Nothing counted yet.
        public init() {}
    }

    /// One destination: its socket, and the hand-off of its sentences to the socket's loop.
    private struct Route {
        var channel: Channel
        var destination: SocketAddress
        var sentences: HandOff<ByteBuffer>
    }

    private let routes: [Route]
    private let tally: Protected<Counts>
    /// Sentences pushed out of a hand-off: the receivers sent faster than the loop wrote.
    private let handOffDrops: DropCounter

    /// How many sentences may wait for a destination's event loop: past this the oldest is
    /// dropped and counted, so a receiver faster than the loop (a flooded `udp://` source)
    /// costs no memory and holds up nothing, the stop included.
    static let handOffCapacity = 64

    /// One socket per destination, bound to any address of its family (so that a broadcast
    /// address may be given): throws the ``GPSDServer/ListenError`` of the first that cannot
    /// be resolved or bound.
    init(destinations: [(host: String, port: Int)], group: EventLoopGroup) throws(GPSDServer.ListenError) {
        let tally = Protected(Counts()), handOffDrops = DropCounter()
        var routes: [Route] = []
        for (host, port) in destinations {
            let named = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            do {
                let destination = try SocketAddress.makeAddressResolvingHost(host, port: port)
                let any = destination.protocol == .inet6 ? "::" : "0.0.0.0"
                let channel = try DatagramBootstrap(group: group)
                    .channelOption(.socketOption(.so_broadcast), value: 1)
                    // A write past this is dropped (below), not queued.
                    .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
                    .bind(host: any, port: 0).wait()
                let sentences = HandOff<ByteBuffer>(capacity: Self.handOffCapacity, on: EventLoopExecutor(channel.eventLoop),
                                                    dropped: handOffDrops) { sentence in
                    Self.write(sentence, on: channel, to: destination, tally: tally)
                }
                routes.append(Route(channel: channel, destination: destination, sentences: sentences))
            } catch {
                for route in routes {
                    route.sentences.close()
                    try? route.channel.close().wait()
                }
                throw GPSDServer.ListenError(address: named, listener: .nmeaDatagrams, reason: error)
            }
        }
        self.routes = routes
        self.tally = tally
        self.handOffDrops = handOffDrops
    }

    /// What was sent so far.
    public var counts: Counts {
        var counts = tally.withLock { $0 }
        counts.unsent += handOffDrops.count
        return counts
    }

    /// Hands `text` to each destination's loop; never waits.
    func send(_ text: String) {
        var buffer = ByteBufferAllocator().buffer(capacity: text.utf8.count + 2)
        buffer.writeString(text)
        buffer.writeBytes([0x0D, 0x0A])
        deliver(buffer, coalescing: false)
    }

    /// On the channel's loop: sent if the socket's buffer has room, else counted and dropped.
    private static func write(_ sentence: ByteBuffer, on channel: Channel, to destination: SocketAddress,
                              tally: Protected<Counts>) {
        guard channel.isWritable else {
            tally.withLock { $0.unsent += 1 }
            return
        }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { result in
            tally.withLock { counts in
                switch result {
                case .success: counts.sent += 1
                case .failure(let error):
                    counts.unsent += 1
                    counts.lastFailure = "\(error)"
                }
            }
        }
        channel.writeAndFlush(AddressedEnvelope(remoteAddress: destination, data: sentence), promise: promise)
    }

    // MARK: A watcher of every device

    /// Each destination's hand-off takes a sentence from any thread.
    var eventLoop: EventLoop? { nil }

    /// Every device's sentences.
    func streams(from path: String) -> WatchedStreams? { .sentences }

    /// Hands the sentence (with its CR LF) to each destination's loop; never waits.
    func deliver(_ buffer: ByteBuffer, coalescing: Bool) {
        for route in routes { route.sentences.send(buffer) }
    }

    /// Datagrams carry sentences only.
    func notify(_ line: [UInt8]) {}

    /// Closes its sockets (when the server stops).
    func close() {
        for route in routes {
            route.sentences.close()
            try? route.channel.close().wait()
        }
    }
}
