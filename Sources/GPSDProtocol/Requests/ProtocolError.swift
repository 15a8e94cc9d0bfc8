/// What goes wrong with a client's request; each becomes one gpsd `ERROR` reply, whose
/// message ``message`` is.
public enum ProtocolError: Error, Sendable, Hashable {
    /// A request name gpsd does not know (`?FOO;`).
    case unrecognized(String)
    /// The JSON argument of a request could not be read.
    case invalidArguments(String)
    /// A request longer than the server accepts.
    case requestTooLong(limit: Int)
    /// `?DEVICE=` with settings: nmeastream never writes to a receiver.
    case deviceSettingsRefused
    /// A request named a device the server does not have.
    case noSuchDevice(String)
    /// Too many requests in too short a time.
    case tooManyRequests

    /// The text of the `ERROR` reply.
    public var message: String {
        switch self {
        case .unrecognized(let name): "Unrecognized request '\(name)'"
        case .invalidArguments(let detail): "Invalid arguments: \(detail)"
        case .requestTooLong(let limit): "Request too long (more than \(limit) bytes)"
        case .deviceSettingsRefused: "Device settings refused: nmeastream does not write to receivers"
        case .noSuchDevice(let path): "No such device as \(path)"
        case .tooManyRequests: "Too many requests"
        }
    }
}
