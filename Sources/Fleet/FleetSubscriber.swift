import Dispatch
import FoundationEssentials
import NMEA
import Synchronization

/// Reads a fleet's reports from an MQTT broker: the `TPV` (and `SKY`) lines that
/// ``FixPublisher``s publish, each tagged with its vehicle, repeats dropped (QoS 1 may
/// deliver a message twice), malformed messages counted and skipped.
///
/// With a client ID, the broker keeps the subscriber's session while it is away (QoS 1), and
/// delivers what was published meanwhile when it comes back.
public final class FleetSubscriber: @unchecked Sendable {
    /// One report, as published.
    public struct Report: Sendable {
        /// The vehicle (`device` in the JSON, the topic level before `tpv` or `sky`).
        public var vehicle: String
        /// `TPV` or `SKY`.
        public var reportClass: String
        /// The report's UTC time (ISO 8601), if it has one.
        public var time: String?
        /// The JSON object as received, one line.
        public var json: String
        /// A `TPV`'s fix, read from the object when it arrived (for renderings other than
        /// JSON): mode, time, position, altitude, speed, track and climb; `nil` for a `SKY`.
        public var fix: Fix?
    }

    /// What the subscriber has seen.
    public struct Counts: Sendable, Equatable {
        public var delivered = 0
        /// Repeats of a report already delivered (the same vehicle, time and bytes): dropped.
        public var repeats = 0
        /// Messages that are not a gpsd JSON report: skipped.
        public var malformed = 0
        /// Why the broker refused the connection, if it did.
        public var refusal: String?
        public var connected = false
    }

    /// The topic filter subscribed to: the URL's, or `TOPIC/+/tpv` and `TOPIC/+/sky` when it
    /// has no wildcard.
    public let filters: [String]
    private var connection: MQTTConnection!
    private let deliver: @Sendable (Report) -> Void
    private let state = Mutex(State())
    private let refused = DispatchSemaphore(value: 0)
    /// Used on libmosquitto's network thread only, one message at a time.
    private let decoder = JSONDecoder()

    private struct State {
        var counts = Counts()
        /// Per vehicle, the reports delivered lately, oldest first.
        var seen: [String: (keys: Set<String>, order: [String])] = [:]
    }

    /// A subscriber of `url`; with `clientID`, a persistent session. `skies` also takes the
    /// `SKY` reports. `deliver` is called on libmosquitto's network thread.
    public init(url: MQTTURL, clientID: String?, password: String? = nil, caFile: String? = nil, skies: Bool = false,
                deliver: @escaping @Sendable (Report) -> Void) throws(MQTTError) {
        filters = url.hasWildcards ? [url.topic] : [url.topic + "/+/tpv"] + (skies ? [url.topic + "/+/sky"] : [])
        self.deliver = deliver
        var handlers = MQTTConnection.Handlers()
        handlers.connected = { [weak self] in self?.connected() }
        handlers.disconnected = { [weak self] in self?.state.withLock { $0.counts.connected = false } }
        handlers.message = { [weak self] topic, payload in self?.received(topic: topic, payload: payload) }
        handlers.fatal = { [weak self] text in
            self?.state.withLock { $0.counts.refusal = text }
            self?.refused.signal()
        }
        connection = try MQTTConnection(.init(url: url, clientID: clientID, cleanSession: clientID == nil,
                                              password: password, caFile: caFile), handlers: handlers)
    }

    /// What it has seen so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Connects (in the background, retrying) and subscribes.
    public func start() throws(MQTTError) { try connection.start() }

    /// Disconnects.
    public func stop() { connection.stop() }

    /// Waits until the broker refuses the connection for good (bad credentials), up to
    /// `seconds`: the refusal, or `nil`.
    public func waitForRefusal(seconds: Double) -> String? {
        _ = refused.wait(timeout: .now() + seconds)
        return state.withLock { $0.counts.refusal }
    }

    private func connected() {
        state.withLock { $0.counts.connected = true }
        // Subscribed again at each connect: a clean session forgets, and it costs nothing.
        for filter in filters { connection.subscribe(filter) }
    }

    private func received(topic: String, payload: [UInt8]) {
        guard let object = try? decoder.decode(ReportObject.self, from: Data(payload)),
              let reportClass = object.reportClass, reportClass == "TPV" || reportClass == "SKY",
              let json = String(validating: payload, as: UTF8.self), !json.contains("\n") else {
            state.withLock { $0.counts.malformed += 1 }
            return
        }
        let levels = topic.split(separator: "/")
        let vehicle = object.device ?? (levels.count >= 2 ? String(levels[levels.count - 2]) : topic)
        let time = object.time
        let fresh = state.withLock { state -> Bool in
            // A repeat is the same vehicle, time and bytes (QoS 1 delivers the very message
            // again); a report revised for the same time differs, and is delivered. Reports
            // without a time cannot be told apart from their repeats: all delivered.
            if let time {
                let key = reportClass + " " + time + " " + json
                var seen = state.seen[vehicle] ?? ([], [])
                guard !seen.keys.contains(key) else {
                    state.counts.repeats += 1
                    return false
                }
                seen.keys.insert(key)
                seen.order.append(key)
                if seen.order.count > 4096 { seen.keys.remove(seen.order.removeFirst()) }
                state.seen[vehicle] = seen
            }
            state.counts.delivered += 1
            return true
        }
        guard fresh else { return }
        deliver(Report(vehicle: vehicle, reportClass: reportClass, time: time, json: json,
                       fix: reportClass == "TPV" ? object.fix : nil))
    }
}
