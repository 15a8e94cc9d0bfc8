import Platform
import Dispatch
import NMEAStream

/// Publishes a receiver's fixes and skies to an MQTT broker as gpsd JSON: each epoch's `SKY`
/// to `TOPIC/NAME/sky` and its `TPV` to `TOPIC/NAME/tpv` (retained: a dashboard that connects
/// later sees where each vehicle is at once), QoS 1, `device` set to NAME. One more subscriber
/// of the device's ``GPSMonitor``.
///
/// Store and forward: every message goes through a ``MessageQueue`` (with a queue folder, an
/// SQLite database there, each epoch's messages committed in one transaction), bounded in
/// bytes, oldest dropped first and counted, and leaves it only when the broker has
/// acknowledged it. The disk is written on an executor of its own: a message is sent without
/// waiting for its commit, and an acknowledgement never waits for a sync of the disk (a
/// stalled disk stalls no broker traffic). A write that fails (a full disk) is told at once
/// (``Configuration/storage``); the messages wait in memory meanwhile, and are stored with
/// the next write that succeeds. While the broker is unreachable, messages wait; when it is
/// back, they are sent in order. A message may reach the broker twice (QoS 1: it was sent,
/// the connection broke before the acknowledgement); subscribers drop repeats by vehicle and
/// time.
public final class FixPublisher: Sendable {
    /// Where and how to publish.
    public struct Configuration: Sendable {
        /// The broker, and the topic prefix.
        public var url: MQTTURL
        /// The vehicle's name: the topic level under the prefix, and `device` in the JSON.
        public var name: String
        /// The password, when not in the URL (from the environment or a file).
        public var password: String?
        /// A CA certificate file for `mqtts://` (the system's certificates otherwise).
        public var caFile: String?
        /// A folder for the queue, so that it survives a restart; `nil` keeps it in memory.
        public var queueFolder: String?
        /// The queue's bound, bytes.
        public var queueCapacity: Int = 64 << 20
        /// How many messages may wait for their acknowledgement at once.
        public var window: Int = 64
        /// Told once, with the reason, if the broker cannot be reached at start (it is tried
        /// again with the backoff while messages wait in the queue).
        public var waiting: (@Sendable (String) -> Void)?
        /// Told with the reason when the broker, once reached, is lost (messages wait in the
        /// queue, and it is tried again with the backoff), and with `nil` when it is reached
        /// again: once each way.
        public var connection: (@Sendable (_ lost: String?) -> Void)?
        /// Told when writing the queue folder fails (with the reason), and when it works
        /// again (`nil`): not for each message.
        public var storage: (@Sendable (String?) -> Void)?
        /// Home Assistant's MQTT discovery: its retained configuration first, then each fix's
        /// position also on `TOPIC/NAME/home-assistant` (``HomeAssistantDiscovery``); none by
        /// default.
        public var homeAssistant: HomeAssistantDiscovery?

        /// A configuration publishing as `name` to `url`.
        public init(url: MQTTURL, name: String) {
            self.url = url
            self.name = name
        }
    }

    /// What the publisher has done so far.
    public struct Status: Sendable, Equatable {
        /// Whether the broker is connected now.
        public var connected = false
        /// Messages the broker acknowledged.
        public var acknowledged = 0
        /// Messages waiting (sent and not yet acknowledged included).
        public var queued = 0
        /// Messages dropped because the queue was full (over its life, restarts included).
        public var dropped = 0
        /// Messages waiting that are not on the disk: a write to the queue folder failed, or
        /// there is no queue folder. Lost if the publisher stops before the broker takes them.
        public var unstored = 0
        /// Why the broker refused the connection, if it did (bad credentials).
        public var refusal: String?
        /// Messages found in the queue folder at start that could not be sent (a damaged or
        /// foreign row: a wildcard or empty topic, a payload over 1 MiB): moved to the
        /// database's `rejected` table, never sent.
        public var movedAside = 0
    }

    private let configuration: Configuration
    private let monitor: GPSMonitor
    private let connection: MQTTConnection
    private let state: Protected<State>
    private let finished = DispatchSemaphore(value: 0)
    /// Where messages are handed to libmosquitto, one batch at a time: two batches handed over
    /// from two threads at once (the source's, the network thread's) could pass each other.
    private let pumping = DispatchQueue(label: "nmeastream.publisher")
    /// Where the queue's writes are committed, one at a time, outside the state's lock: an
    /// acknowledgement (on libmosquitto's thread) or an epoch never waits for a sync of the
    /// disk, and epochs that come during one are written together by the next.
    private let storing: DispatchQueue

    private struct State {
        var queue: MessageQueue
        var status = Status()
        /// Message IDs awaiting acknowledgement, and the message each carries.
        var inFlight: [Int32: UInt64] = [:]
        var sending: Set<UInt64> = []
        /// Acknowledgements that came before their message ID was recorded.
        var earlyAcknowledgements: Set<Int32> = []
        var subscription: Disposable?
        var sourceEnded = false
        var stopped = false
        var sourceError: GPSError?
        /// A retry of a failed write is due (one at a time).
        var retryScheduled = false
        /// A write is on its way to ``storing`` and has not started: what comes meanwhile
        /// joins it.
        var writeScheduled = false
    }

    /// How long after a failed write to the queue folder it is tried again (and again, until
    /// it works or the publisher stops), epochs or none.
    public static let storageRetryInterval: DispatchTimeInterval = .seconds(1)

    /// A publisher of `monitor`'s receiver; nothing happens until ``start()``.
    /// Fails with ``PublisherError/queue(_:)`` when the queue folder cannot hold the queue
    /// (missing parent, a file in its place, not writable), or ``PublisherError/broker(_:)``.
    public convenience init(monitor: GPSMonitor, configuration: Configuration) throws(PublisherError) {
        try self.init(monitor: monitor, configuration: configuration, storing: DispatchQueue(label: "nmeastream.publisher.storage"))
    }

    /// A publisher whose queue's writes run on `storing`, a serial queue (a test stalls it
    /// as a disk that hangs).
    init(monitor: GPSMonitor, configuration: Configuration, storing: DispatchQueue) throws(PublisherError) {
        self.monitor = monitor
        self.storing = storing
        self.configuration = configuration
        let queue: MessageQueue
        do throws(QueueError) {
            queue = try MessageQueue(folder: configuration.queueFolder, capacity: configuration.queueCapacity)
        } catch {
            throw .queue(error)
        }
        var initial = State(queue: queue)
        Self.count(&initial)
        state = Protected(initial)
        let later = LaterOwner<FixPublisher>()
        var handlers = MQTTConnection.Handlers()
        handlers.connected = { later.owner?.connected() }
        handlers.disconnected = { later.owner?.disconnected() }
        handlers.published = { messageID in later.owner?.acknowledged(messageID) }
        handlers.fatal = { text in later.owner?.refused(text) }
        if let waiting = configuration.waiting { handlers.waiting = waiting }
        if let told = configuration.connection {
            handlers.lost = { reason in told(reason) }
            handlers.regained = { told(nil) }
        }
        do throws(MQTTError) {
            connection = try MQTTConnection(.init(url: configuration.url, clientID: nil, cleanSession: true,
                                                  password: configuration.password, caFile: configuration.caFile), handlers: handlers)
        } catch {
            throw .broker(error)
        }
        later.set(self)
    }

    /// What it has done so far.
    public var status: Status { state.withLock { $0.status } }

    /// Connects (in the background, retrying) and starts publishing the receiver's epochs;
    /// what an earlier run left in the queue goes first.
    public func start() throws(MQTTError) {
        if let discovery = configuration.homeAssistant {
            // Queued before the epochs: the entity exists when its first position comes.
            let message = MessageQueue.Outgoing(
                topic: discovery.configurationTopic(name: configuration.name),
                payload: discovery.configuration(name: configuration.name, attributesTopic: homeAssistantTopic,
                                                 version: NMEAStreamRelease.version),
                retain: true)
            state.withLock { state in
                state.queue.enqueue([message])
                Self.count(&state)
            }
            store()
        }
        try connection.start()
        let subscription = monitor.events(satellites: true, delivery: .lossless(capacity: 1024)).observe(
            next: { [weak self] event in self?.take(event) },
            failed: { [weak self] error in self?.sourceEnded(error) },
            completed: { [weak self] in self?.sourceEnded(nil) })
        state.withLock { $0.subscription = subscription }
    }

    /// Waits until the source has ended (a log's end), the broker refused the connection for
    /// good, or ``stop()``; then until the queue is empty, up to `seconds`. Whether it was
    /// emptied.
    public func waitUntilDrained(seconds: Double) -> Bool {
        finished.wait()
        let deadline = DispatchTime.now() + seconds
        while DispatchTime.now() < deadline {
            if state.withLock({ $0.queue.messages.isEmpty || $0.status.refusal != nil || $0.stopped }) { break }
            ThreadPause.sleep(.milliseconds(20))
        }
        return state.withLock { $0.queue.messages.isEmpty }
    }

    /// Why the source ended, if it failed.
    public var sourceError: GPSError? { state.withLock { $0.sourceError } }

    /// Stops reading and publishing; what is queued stays queued (on disk, with a folder).
    /// A ``waitUntilDrained(seconds:)`` under way returns.
    public func stop() {
        state.withLock { state -> Disposable? in
            state.stopped = true
            return state.subscription
        }?.dispose()
        connection.stop()
        // After the writes under way, once more: for what a failed write left in memory only,
        // and so that what the broker took leaves the disk now, not on the next run.
        storing.sync { writeNow(evenStopped: true) }
        finished.signal()
    }

    /// Where Home Assistant reads the vehicle's attributes.
    private var homeAssistantTopic: String { configuration.url.topic + "/" + configuration.name + "/home-assistant" }

    private func take(_ event: GPSEvent) {
        let topic = configuration.url.topic + "/" + configuration.name
        var writer = JSONWriter()
        let queued = state.withLock { state -> Bool in
            var outgoing: [MessageQueue.Outgoing] = []
            if let epoch = event.epoch {
                GPSDJSON.write(epoch, device: configuration.name, reusing: &writer) { reportClass, report in
                    switch reportClass {
                    case .sky: outgoing.append(.init(topic: topic + "/sky", payload: report.bytes, retain: false))
                    case .tpv: outgoing.append(.init(topic: topic + "/tpv", payload: report.bytes, retain: true))
                    case .gst: outgoing.append(.init(topic: topic + "/gst", payload: report.bytes, retain: false))
                    case .att: outgoing.append(.init(topic: topic + "/att", payload: report.bytes, retain: false))
                    }
                }
                if configuration.homeAssistant != nil, let fix = epoch.fix, let attributes = HomeAssistantDiscovery.attributes(fix) {
                    outgoing.append(.init(topic: homeAssistantTopic, payload: attributes, retain: true))
                }
            }
            guard !outgoing.isEmpty else { return false }
            state.queue.enqueue(outgoing)
            Self.count(&state)
            return true
        }
        if queued { store() }
    }

    /// Sends what waits, and writes it to the queue folder on ``storing``.
    private func store() {
        let (inMemory, due) = state.withLock { state -> (Bool, Bool) in
            guard state.queue.folder != nil else { return (true, false) }
            defer { state.writeScheduled = true }
            return (false, !state.writeScheduled)
        }
        // Sent at once, stored meanwhile: a message the broker takes before its write commits
        // leaves the database with the next write (``MessageQueue/finish(_:failure:)``).
        pump()
        if !inMemory, due { storing.async { [weak self] in self?.writeNow() } }
    }

    /// Commits the queue's next write (on ``storing``), with no lock held while the disk
    /// syncs; then tells how storing changed.
    private func writeNow(evenStopped: Bool = false) {
        let write = state.withLock { state -> PendingWrite? in
            state.writeScheduled = false
            guard evenStopped || !state.stopped else { return nil }
            return state.queue.takeWrite()
        }
        guard let write else { return }
        let failure = write.commit()
        let (change, failing) = state.withLock { state -> (MessageQueue.StorageChange?, Bool) in
            let change = state.queue.finish(write, failure: failure)
            Self.count(&state)
            return (change, state.queue.storageFailure != nil)
        }
        told(change)
        if failing { scheduleRetry() }
    }

    /// Tells a change in the queue folder's writes; after a failure, tries again on a timer.
    private func told(_ change: MessageQueue.StorageChange?) {
        switch change {
        case .failed(let reason)?: configuration.storage?(reason)
        case .recovered?: configuration.storage?(nil)
        case nil: break
        }
    }

    /// Writes again what a failed write left in memory, in ``storageRetryInterval``; again
    /// after that while it fails, until the publisher stops. A database another process
    /// locked (a backup) or a disk that was full is written as soon as it can be, not only
    /// when the next epoch comes (there may be none: a log that ended, a receiver gone).
    private func scheduleRetry() {
        let due = state.withLock { state -> Bool in
            guard !state.retryScheduled, !state.stopped else { return false }
            state.retryScheduled = true
            return true
        }
        guard due else { return }
        storing.asyncAfter(deadline: .now() + Self.storageRetryInterval) { [weak self] in
            guard let self else { return }
            let failing = state.withLock { state in
                state.retryScheduled = false
                return state.queue.storageFailure != nil
            }
            if failing { writeNow() }
        }
    }

    private func sourceEnded(_ error: GPSError?) {
        state.withLock { state in
            state.sourceEnded = true
            state.sourceError = error
        }
        finished.signal()
    }

    private func connected() {
        state.withLock { $0.status.connected = true }
        pump()
    }

    /// Bad credentials or a TLS failure: trying again will not help.
    private func refused(_ text: String) {
        state.withLock { $0.status.refusal = text }
        finished.signal()
    }

    private func disconnected() {
        // What was in flight is sent again, in order, once connected.
        state.withLock { state in
            state.status.connected = false
            state.inFlight = [:]
            state.sending = []
            state.earlyAcknowledgements = []
        }
    }

    /// On libmosquitto's thread: memory only (the deletion is written later, on ``storing``).
    private func acknowledged(_ messageID: Int32) {
        let writeDue = state.withLock { state -> Bool in
            guard let sequence = state.inFlight.removeValue(forKey: messageID) else {
                state.earlyAcknowledgements.insert(messageID)
                return false
            }
            return Self.complete(sequence, in: &state)
        }
        if writeDue { store() }
        pump()
    }

    /// Whether a write of the deletions is due.
    private static func complete(_ sequence: UInt64, in state: inout State) -> Bool {
        state.sending.remove(sequence)
        let writeDue = state.queue.acknowledge(sequence)
        state.status.acknowledged += 1
        count(&state)
        return writeDue
    }

    private static func count(_ state: inout State) {
        state.status.queued = state.queue.messages.count
        state.status.dropped = state.queue.dropped
        state.status.unstored = state.queue.folder == nil ? state.queue.messages.count : state.queue.unstored
        state.status.movedAside = state.queue.movedAside
    }

    /// Sends what waits, oldest first, up to the window (on the pumping queue: in order).
    private func pump() {
        pumping.async { [weak self] in self?.pumpNow() }
    }

    private func pumpNow() {
        let batch = state.withLock { state -> [MessageQueue.Message] in
            guard state.status.connected else { return [] }
            let room = configuration.window - state.sending.count
            guard room > 0 else { return [] }
            var next: [MessageQueue.Message] = []
            for message in state.queue.messages where next.count < room && !state.sending.contains(message.sequence) {
                next.append(message)
            }
            for message in next { state.sending.insert(message.sequence) }
            return next
        }
        for message in batch {
            let messageID = connection.publish(topic: message.topic, payload: message.payload, retain: message.retain)
            let writeDue = state.withLock { state -> Bool in
                guard let messageID else {
                    state.sending.remove(message.sequence)
                    return false
                }
                guard state.earlyAcknowledgements.remove(messageID) != nil else {
                    state.inFlight[messageID] = message.sequence
                    return false
                }
                return Self.complete(message.sequence, in: &state)
            }
            if writeDue { store() }
        }
    }
}
