/// A network receiver's connection made or lost, as ``GPSMonitor/networkConnections`` tells it
/// (what ``NMEAReaderDelegate/reader(_:didConnect:)`` and
/// ``NMEAReaderDelegate/reader(_:didLoseConnection:)`` tell a reader's delegates).
public enum NetworkConnectionEvent: Sendable, Hashable {
    /// Connected to the endpoint (its URL); for `udp://`, the port bound.
    case connected(endpoint: String)
    /// The connection failed or was lost, and is tried again after a wait.
    case interrupted(NetworkInterruption)
}
