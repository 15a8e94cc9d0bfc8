/// Why a publisher could not be made.
public enum PublisherError: Error, CustomStringConvertible {
    /// The queue folder cannot hold the queue.
    case queue(QueueError)
    /// The broker's settings or the MQTT library.
    case broker(MQTTError)

    public var description: String {
        switch self {
        case .queue(let error): "\(error)"
        case .broker(let error): "\(error)"
        }
    }
}
