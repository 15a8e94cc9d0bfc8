import NIOCore
import NIOPosix

/// Binding the listeners, and what every connection they accept shares.
extension GPSDServer {
    /// Binds `listener` to each of `addresses` (kept to be closed at ``stop()``); the addresses
    /// bound. Throws the ``ListenError`` of the first that cannot be bound.
    func bind(_ listener: some ServerListener, to addresses: [(host: String, port: Int)]) throws(ListenError) -> [SocketAddress] {
        let bootstrap = bootstrap(for: listener)
        return try addresses.map { address throws(ListenError) in
            try keep("\(address.host):\(address.port)", listener, bootstrap.bind(host: address.host, port: address.port))
        }.compactMap(\.self)
    }

    /// Listens with `listener` on `sockets`, already bound (systemd's); the addresses.
    func bind(_ listener: some ServerListener, sockets: [Int32]) throws(ListenError) -> [SocketAddress] {
        let bootstrap = bootstrap(for: listener)
        return try sockets.map { socket throws(ListenError) in
            try keep("systemd's socket \(socket)", listener, bootstrap.withBoundSocket(socket))
        }.compactMap(\.self)
    }

    /// Waits for a listening channel, keeps it to be closed at ``stop()``; its address.
    private func keep(_ named: String, _ listener: some ServerListener,
                      _ future: EventLoopFuture<Channel>) throws(ListenError) -> SocketAddress? {
        let channel: Channel
        do { channel = try future.wait() } catch { throw ListenError(address: named, listener: listener.kind, reason: error) }
        registry.withLock { $0.channels.append(channel) }
        return channel.localAddress
    }

    /// The bootstrap of every listener, whose connections `listener` sets up.
    private func bootstrap(for listener: some ServerListener) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // A failed accept (out of descriptors: EMFILE) would otherwise be tried again at
            // once, for ever, a core busy: accepting pauses 100 ms after each, and is counted.
            .serverChannelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: true) { _ in .milliseconds(100) })
                    try channel.pipeline.syncOperations.addHandler(AcceptFailureCounter { [weak self] in self?.countRefusal(\.acceptFailures) })
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Reads of at most 16 KB: what a client sends while its backlog is full waits in
            // one read at most (four a turn of the loop).
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 16_384))
            // Past the backlog a client's channel is not writable: its reports are dropped.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: configuration.clientBacklog / 2, high: max(1, configuration.clientBacklog)))
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture { try listener.configure(channel, for: self) }
            }
    }

    /// Counts a new connection to `listener`, unless the limit or that listener's share of it
    /// is reached (``ConnectionAdmission``); its end is counted when it closes.
    func connectionOpened(_ channel: Channel, to listener: ListenError.Listener) -> Bool {
        let opened = registry.withLock { state in
            state.admission.limit = connectionLimit
            return state.admission.admit(listener)
        }
        if opened { channel.closeFuture.whenComplete { [weak self] _ in self?.registry.withLock { $0.admission.release(listener) } } }
        return opened
    }
}
