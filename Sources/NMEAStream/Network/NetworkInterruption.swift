/// A network source lost its peer, or could not reach it, and will try again.
public struct NetworkInterruption: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint, as its URL.
    public var endpoint: String
    /// What happened, as a sentence: `connection refused`, `closed by the peer`….
    public var reason: String
    /// How long until the next attempt, in seconds.
    public var retryIn: Double

    /// Describes an interruption.
    public init(endpoint: String, reason: String, retryIn: Double) {
        self.endpoint = endpoint
        self.reason = reason
        self.retryIn = retryIn
    }

    /// `ENDPOINT: REASON; trying again in N s`.
    public var description: String {
        let seconds = retryIn == retryIn.rounded() ? String(Int(retryIn)) : String(retryIn)
        return "\(endpoint): \(reason); trying again in \(seconds) s"
    }
}
