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
}
