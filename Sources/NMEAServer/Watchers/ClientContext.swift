import GPSDProtocol

/// What a client connection asks of the server it belongs to: the settings it is served with,
/// the state its requests read, and where its watches, its end and its refusals go. A
/// connection holds this and not the server, so that its handler is tested with a stand-in.
protocol ClientContext: AnyObject, Sendable {
    /// The server's settings (the version it tells, the request length, the time-outs).
    var configuration: GPSDServer.Configuration { get }
    /// The devices and their latest reports, as a request reads them.
    func snapshot() -> ClientSession.ServerState
    /// The client's watch changed: it is attached to or detached from devices to match.
    func watch(_ client: ClientConnection)
    /// The client went away: it watches nothing more.
    func remove(_ client: ClientConnection)
    /// One more client let go for `reason`.
    func countRefusal(_ reason: WritableKeyPath<GPSDServer.Refusals, Int> & Sendable)
}

extension GPSDServer: ClientContext {}
