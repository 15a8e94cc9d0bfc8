import NMEAStream

/// What happens to a server's devices, told as it happens (``GPSDServer/Configuration/events``):
/// for a log, or for the command's messages.
public enum ServerEvent: Sendable {
    /// The first watcher came: the device is being opened.
    case deviceOpening(path: String)
    /// The device could not be opened, or failed while it was read. It is tried again every
    /// second while someone watches it; a failure is told once, and again only when it
    /// changes (another error) or after the device worked in between.
    case deviceFailed(path: String, error: GPSError)
    /// The device reports again after it failed.
    case deviceRecovered(path: String)
    /// The last watcher left: the device is closed (after the server's linger).
    case deviceReleased(path: String)
    /// A network receiver (`path` is its URL) is connected: on its opening, and again after
    /// an interruption (`reconnected`).
    case networkConnected(path: String, reconnected: Bool)
    /// A network receiver's connection failed or was lost; it is tried again after the wait
    /// the interruption says. Told once per reason until it connects again.
    case networkInterrupted(path: String, interruption: NetworkInterruption)
    /// A port discovery classes as a candidate (a USB-serial bridge) is being listened to, to
    /// tell whether a receiver sits behind it; `reason` is what discovery took it for.
    case candidateListening(path: String, reason: String)
    /// A candidate sent valid NMEA or UBX: it is served from now on; `reason` says what was
    /// heard.
    case candidateServed(path: String, reason: String)
    /// A candidate sent nothing valid, or could not be listened to: it is closed and left
    /// alone until it is plugged in again; `reason` says why.
    case candidateLeftAlone(path: String, reason: String)
    /// The PPS device of the receiver at `path` could not be opened or read (`reason`): its
    /// watchers get no `PPS` reports until it opens again.
    case pulsesUnavailable(path: String, reason: String)
    /// An integrity check failed on the device at `path` (``GPSDServer/Configuration/integrity``);
    /// on the merged device, a member's (named in the event) or the members' disagreement.
    case integrity(path: String, event: IntegrityEvent)
    /// The merged device changed the receiver it carries.
    case sourceChanged(path: String, change: SourceChange)
}
