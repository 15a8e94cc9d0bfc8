/// How long a network source waits before it tries its peer again: 1 s after the first
/// failure, doubling to at most 30 s, and 1 s again once a connection has brought data (a
/// server that accepts and at once drops its clients is not hammered).
struct ReconnectBackoff: Sendable, Equatable {
    /// The first wait, in seconds.
    static let first = 1.0
    /// The longest wait, in seconds.
    static let longest = 30.0

    private var next = ReconnectBackoff.first

    /// The wait before the next attempt, in seconds; the one after it is longer.
    mutating func delay() -> Double {
        defer { next = min(next * 2, Self.longest) }
        return next
    }

    /// The peer sent data: the next wait is the first again.
    mutating func reset() {
        next = Self.first
    }

    /// The next wait is `seconds` (within the first and the longest), whatever came before.
    mutating func wait(_ seconds: Double) {
        next = min(max(seconds, Self.first), Self.longest)
    }
}
