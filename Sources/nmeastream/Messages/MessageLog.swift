import Platform
import Dispatch
import NMEAStream

/// Standard error, written off every caller's thread: a device's event loop, a reader's queue
/// or a signal handler hands its line over and goes on at once. Only the log's own queue waits
/// when nobody reads the output (`serve 2>&1 | less`, a stuck logger, a terminal after
/// Ctrl-S); while it does, at most ``capacity`` lines wait (a ``HandOff``), older ones are
/// dropped, and once the output moves again one line says how many were lost. Messages of a
/// repeating kind go through a ``MessageCoalescer``: one line a second for each key at most.
///
/// Lines still waiting when the process exits are written then, waiting at most
/// ``exitAllowance`` for an output that does not move.
final class MessageLog: Sendable {
    /// The process's standard error, flushed at exit.
    static let standardError: MessageLog = {
        let log = MessageLog { bytes in bytes.withUnsafeBytes { try? Syscall.writeAll(Syscall.standardError, $0) } }
        ProcessExit.atExit { MessageLog.standardError.flush(waitingAtMost: MessageLog.exitAllowance) }
        return log
    }()

    /// How many lines may wait: 256.
    static let capacity = 256
    /// How long exit waits for the lines still waiting: 250 ms. Plenty for an output that
    /// moves (a terminal, a file, journald); an output that does not move will not in a
    /// second either, and a stop asked for is not held up by it.
    static let exitAllowance: Duration = .milliseconds(250)
    /// The longest line written, in bytes (a longer one is cut, and says so).
    static let maximumLineBytes = 4096

    private let queue: DispatchQueue
    private let scheduler: any Scheduler
    private let lines: HandOff<String>
    private let dropped = DropCounter()
    private let coalescer: Protected<MessageCoalescer>

    /// A log whose lines `write` takes, one at a time on a queue of the log's own, each with its
    /// `nmeastream: ` prefix and line feed; `interval` is the coalescing interval, seconds.
    init(interval: Double = 1, write: @escaping @Sendable ([UInt8]) -> Void) {
        let queue = DispatchQueue(label: "nmeastream.messages")
        let scheduler = QueueScheduler(queue: queue)
        let dropped = self.dropped
        let reported = Protected(0)
        self.queue = queue
        self.scheduler = scheduler
        coalescer = Protected(MessageCoalescer(interval: interval))
        lines = HandOff(capacity: Self.capacity, on: scheduler, dropped: dropped) { line in
            // Said before the next line, once the output takes lines again.
            let lost = reported.withLock { reported in
                defer { reported = dropped.count }
                return dropped.count - reported
            }
            if lost > 0 {
                write(Self.framed("\(lost) message\(lost == 1 ? "" : "s") not written: standard error was not read in time"))
            }
            write(Self.framed(line))
        }
    }

    /// Says `message` on a line of its own; never waits.
    func say(_ message: String) { lines.send(message) }

    /// Says `message`, but at most one line per interval for `key` (an event's kind and
    /// source): what comes within an interval is counted, and its last said with the count at
    /// the interval's end. A message with the `identity` of one of the last ones is not said
    /// again. Never waits.
    func say(_ message: String, coalescing key: String, identity: Int? = nil) {
        let decision = coalescer.withLock { $0.take(message, key: key, identity: identity) }
        act(on: decision)
    }

    /// Says `message` unless the last message said for `key` had the same `reason` (a peer
    /// failing again the same way); ``forget(_:)`` when it is back. Never waits.
    func say(_ message: String, key: String, reason: String) {
        if coalescer.withLock({ $0.takeOnChange(key: key, reason: reason) }) { lines.send(message) }
    }

    /// What `key` last failed for is forgotten: its next failure is said, whatever its reason.
    func forget(_ key: String) {
        coalescer.withLock { $0.forget(key) }
    }

    private func act(on decision: MessageCoalescer.Decision) {
        if let line = decision.say { lines.send(line) }
        if let key = decision.closeLater {
            let interval = coalescer.withLock { $0.interval }
            scheduler.schedule(after: .nanoseconds(Int64(interval * 1e9))) { [self] in
                act(on: coalescer.withLock { $0.close(key) })
            }
        }
    }

    /// Waits until every line said so far is written, or `allowance` has passed; returns
    /// whether they were.
    @discardableResult
    func flush(waitingAtMost allowance: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + .nanoseconds(Int(allowance.clampedNanoseconds))) == .success
    }

    /// How many lines were dropped so far for want of a reader.
    var droppedLines: Int { dropped.count }

    private static func framed(_ message: String) -> [UInt8] {
        var bytes = Array("nmeastream: ".utf8)
        var text = Array(message.utf8)
        if text.count > maximumLineBytes {
            var cut = maximumLineBytes
            // On a character's first byte, not inside one.
            while cut > 0, text[cut] & 0xC0 == 0x80 { cut -= 1 }
            text.removeSubrange(cut...)
            text += Array(" [cut: \(message.utf8.count) bytes]".utf8)
        }
        bytes += text
        bytes.append(0x0A)
        return bytes
    }
}

/// Writes one line to standard error, through ``MessageLog/standardError``: never waits.
func printError(_ message: String) {
    MessageLog.standardError.say(message)
}
