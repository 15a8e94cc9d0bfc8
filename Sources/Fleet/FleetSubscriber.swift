import Dispatch
import FoundationEssentials
import NMEA
import Signals
import Platform

/// Reads a fleet's reports from an MQTT broker: the `TPV` (and `SKY`) lines that
/// ``FixPublisher``s publish, each tagged with its vehicle, repeats dropped (QoS 1 may
/// deliver a message twice), malformed messages counted and skipped.
///
/// The vehicle is the topic level before `tpv` or `sky`, the name the broker's access rules
/// protect, never what the payload says (``FleetReportFilter`` says what is taken).
///
/// With a client ID, the broker keeps the subscriber's session while it is away (QoS 1), and
/// delivers what was published meanwhile when it comes back.
public final class FleetSubscriber: Sendable {
    /// One report, as published.
    public struct Report: Sendable {
        /// The vehicle: the topic level before `tpv` or `sky` (its `device` in the JSON is
        /// the same, or absent). Any Unicode text: escape it for the format it is printed in.
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
        /// Messages that are not a gpsd JSON report of their topic's vehicle
        /// (``FleetReportFilter``): skipped.
        public var malformed = 0
        /// Vehicles forgotten to stay within ``FleetReportFilter/maximumVehicles`` (a repeat of
        /// a forgotten vehicle's report is delivered again).
        public var vehiclesForgotten = 0
        /// Why the broker refused the connection, if it did.
        public var refusal: String?
        public var connected = false
    }

    /// The topic filter subscribed to: the URL's, or `TOPIC/+/tpv` and `TOPIC/+/sky` when it
    /// has no wildcard.
    public let filters: [String]
    private let connection: MQTTConnection
    private let deliver: @Sendable (Report) -> Void
    private let state = Protected(State())
    private let refused = DispatchSemaphore(value: 0)
    /// Used on libmosquitto's network thread only, one message at a time.
    private let decoder = JSONDecoder()

    /// How many vehicles it remembers reports of.
    public static var maximumVehicles: Int { FleetReportFilter.maximumVehicles }
    /// The longest vehicle name taken, in bytes.
    public static var maximumNameLength: Int { FleetReportFilter.maximumNameLength }

    private struct State {
        var counts = Counts()
        var filter = FleetReportFilter()
    }

    /// A subscriber of `url`; with `clientID`, a persistent session. `skies` also takes the
    /// `SKY` reports. `deliver` is called on libmosquitto's network thread; `waiting` once,
    /// with the reason, if the broker cannot be reached at start (it is tried again);
    /// `connection` with the reason when the broker, once reached, is lost (tried again), and
    /// with `nil` when it is reached again.
    public init(url: MQTTURL, clientID: String?, password: String? = nil, caFile: String? = nil, skies: Bool = false,
                waiting: @escaping @Sendable (String) -> Void = { _ in },
                connection changed: @escaping @Sendable (_ lost: String?) -> Void = { _ in },
                deliver: @escaping @Sendable (Report) -> Void) throws(MQTTError) {
        filters = url.hasWildcards ? [url.topic] : [url.topic + "/+/tpv"] + (skies ? [url.topic + "/+/sky"] : [])
        self.deliver = deliver
        let later = LaterOwner<FleetSubscriber>()
        var handlers = MQTTConnection.Handlers()
        handlers.connected = { later.owner?.connected() }
        handlers.disconnected = { later.owner?.state.withLock { $0.counts.connected = false } }
        handlers.message = { topic, payload in later.owner?.received(topic: topic, payload: payload) }
        handlers.waiting = waiting
        handlers.lost = { reason in changed(reason) }
        handlers.regained = { changed(nil) }
        handlers.fatal = { text in
            guard let owner = later.owner else { return }
            owner.state.withLock { $0.counts.refusal = text }
            owner.refused.signal()
        }
        connection = try MQTTConnection(.init(url: url, clientID: clientID, cleanSession: clientID == nil,
                                              password: password, caFile: caFile), handlers: handlers)
        later.set(self)
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
        let report = state.withLock { state -> Report? in
            let outcome = state.filter.take(topic: topic, payload: payload, decoder: decoder)
            switch outcome {
            case .deliver: state.counts.delivered += 1
            case .repeated: state.counts.repeats += 1
            case .malformed: state.counts.malformed += 1
            }
            state.counts.vehiclesForgotten = state.filter.vehiclesForgotten
            if case .deliver(let report) = outcome { return report }
            return nil
        }
        if let report { deliver(report) }
    }
}
