/// Which messages of a repeating kind are said: at most one line per interval for each key (an
/// event's kind and source), the first at once, and at the end of each interval in which more
/// came, the last of them with how many it stands for. A receiver that jumps at every epoch, or
/// a flood of bad datagrams, then costs one line a second, not one per event. Pure: times in,
/// lines out; the ``MessageLog`` holds it under its lock and runs its timers.
struct MessageCoalescer {
    /// One key's current interval.
    private struct Window {
        /// Messages held back in it.
        var held = 0
        /// The last of them.
        var latest = ""
    }

    /// How long an interval lasts, seconds.
    let interval: Double
    /// How many keys may have an interval open at once; a message whose key finds no room is
    /// held under ``overflowKey``, so that distinct keys cannot escape the bound either.
    let maximumKeys: Int
    private var windows: [String: Window] = [:]
    /// The reason last said for each key of ``takeOnChange(key:reason:)``.
    private var reasons: [String: String] = [:]
    /// The identities of the last messages taken (``take(_:key:identity:)``), oldest first.
    private var recent: [Int] = []
    /// How many identities are remembered.
    static let recentCapacity = 64

    /// The key of the messages that found no room for their own.
    static let overflowKey = "\u{0}other"

    init(interval: Double = 1, maximumKeys: Int = 64) {
        self.interval = interval
        self.maximumKeys = max(1, maximumKeys)
    }

    /// What to do with a message.
    struct Decision: Equatable {
        /// The line to say now; `nil`: held back.
        var say: String?
        /// The key whose interval opened: ask ``close(_:)`` for it after ``interval``.
        var closeLater: String?
    }

    /// A message of `key`: said at once when no interval of its key is open (one opens), else
    /// held back and counted. With an `identity`, a message whose identity is among the last
    /// ones taken is the same message heard again by another path (a receiver's event seen
    /// through the merged device and through its own) and is ignored.
    mutating func take(_ message: String, key: String, identity: Int? = nil) -> Decision {
        if let identity {
            if recent.contains(identity) { return Decision() }
            if recent.count == Self.recentCapacity { recent.removeFirst() }
            recent.append(identity)
        }
        var key = key
        if windows[key] == nil, windows.count >= maximumKeys { key = Self.overflowKey }
        if windows[key] != nil {
            windows[key]!.held += 1
            windows[key]!.latest = message
            return Decision()
        }
        windows[key] = Window()
        return Decision(say: message, closeLater: key)
    }

    /// The end of `key`'s interval: the line standing for what was held back in it (and a new
    /// interval opens, so the next line is at least an interval later), or nothing when nothing
    /// came (and the key is quiet again: its next message is said at once).
    mutating func close(_ key: String) -> Decision {
        guard let window = windows[key] else { return Decision() }
        guard window.held > 0 else {
            windows[key] = nil
            return Decision()
        }
        windows[key] = Window()
        let seconds = interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
        let line = window.held == 1 ? window.latest
            : window.latest + " (and \(window.held - 1) more like it in \(seconds))"
        return Decision(say: key == Self.overflowKey && window.held > 1
                        ? window.latest + " (and \(window.held - 1) more messages of other kinds in \(seconds))" : line,
                        closeLater: key)
    }

    /// Keys with an interval open.
    var openKeys: Int { windows.count }

    /// Whether a message of `key` failing for `reason` is to be said: only when the reason is
    /// not the one last said for that key (a peer that keeps failing the same way is said
    /// once, not at every attempt). At most ``maximumKeys`` keys are remembered.
    mutating func takeOnChange(key: String, reason: String) -> Bool {
        guard reasons[key] != reason else { return false }
        if reasons[key] == nil, reasons.count >= maximumKeys, let any = reasons.keys.first { reasons[any] = nil }
        reasons[key] = reason
        return true
    }

    /// Forgets the reason last said for `key` (the peer is back): its next failure is said.
    mutating func forget(_ key: String) {
        reasons[key] = nil
    }
}
