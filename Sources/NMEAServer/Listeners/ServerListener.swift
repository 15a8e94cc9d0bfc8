import GPSDProtocol
import NIOCore

/// One kind of listener of the server: what a connection accepted on it becomes. The gpsd
/// port and the plain NMEA feed are ``StreamClientListener``s; the live page is a
/// ``PageListener``. A new kind of listener is one more type that conforms; the server binds
/// each the same way (``GPSDServer/bind(_:to:)``), under the same limits.
protocol ServerListener: Sendable {
    /// Which listener it is: in errors, and for its share of the connection limit.
    var kind: GPSDServer.ListenError.Listener { get }

    /// Sets up a connection just accepted, on its loop: refused (told why, closed) when the
    /// server has no room for it, else given its handlers.
    func configure(_ channel: Channel, for server: GPSDServer) throws
}

/// A listener whose connections are ``ClientConnection``s of one role on a plain TCP stream,
/// under the server's bounds: NIO's back-pressure in front (nothing more is read while the
/// replies are not), and the connection limit with the listener's share of it.
struct StreamClientListener: ServerListener {
    let kind: GPSDServer.ListenError.Listener
    let role: ClientConnection.Role
    /// What a connection past the limit is sent before it is closed.
    let refusal: String

    /// gpsd's port: `ERROR` `Too many clients` past the limit, as gpsd says it.
    static let gpsd = StreamClientListener(kind: .gpsd, role: .gpsd, refusal: ServerReply.error("Too many clients").line)
    /// The plain NMEA feed: closed at once past its share (it speaks no protocol to say why).
    static let nmeaFeed = StreamClientListener(kind: .nmeaFeed, role: .nmeaFeed, refusal: "")

    func configure(_ channel: Channel, for server: GPSDServer) throws {
        let connection = ClientConnection(channel: channel, server: server, role: role)
        guard server.connectionOpened(channel, to: kind), server.add(connection) else {
            server.countRefusal(\.tooManyClients)
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(reason: refusal))
            return
        }
        try channel.pipeline.syncOperations.addHandler(NIOCore.BackPressureHandler())
        try channel.pipeline.syncOperations.addHandler(GPSDClientHandler(connection: connection))
    }
}
