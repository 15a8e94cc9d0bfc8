import CMosquitto
import Platform
import Dispatch
import NMEAStream

/// One connection to an MQTT broker through Eclipse's libmosquitto, on libmosquitto's own
/// network thread (`mosquitto_loop_start`): it connects in the background, reconnects with
/// a backoff of 1 s doubling to 30 s (no busy loop), and calls the handlers on that thread.
///
/// The first connection is tried with the same backoff, on a queue of its own, until it is
/// made: libmosquitto's network thread tries again only a connection it once had, so a
/// broker (or a network, or a name server) that is not there at start would otherwise never
/// be tried again.
/// A thin wrapper: what to publish and when is ``FixPublisher``'s business.
final class MQTTConnection: @unchecked Sendable {
    struct Options {
        var url: MQTTURL
        var clientID: String?
        /// Whether the broker forgets the session at each connect; `false` (with a client ID)
        /// keeps a subscriber's subscriptions and what was published for it while it was away.
        var cleanSession = true
        var password: String?
        var caFile: String?
        var keepAlive: Int32 = 30
    }

    struct Handlers: Sendable {
        /// Connected.
        var connected: @Sendable () -> Void = {}
        /// Lost or closed (it reconnects by itself unless stopped).
        var disconnected: @Sendable () -> Void = {}
        /// A failure that trying again will not mend, told once: the broker refused the user
        /// name, password or authorisation (CONNACK 4 or 5), or TLS failed before the first
        /// connection (a wrong port, a certificate that does not check).
        /// A QoS 1 message was acknowledged by the broker.
        var published: @Sendable (Int32) -> Void = { _ in }
        var fatal: @Sendable (String) -> Void = { _ in }
        /// A message arrived: its topic and payload.
        var message: @Sendable (String, [UInt8]) -> Void = { _, _ in }
        /// The first connection failed (why), told once: it is tried again with the backoff.
        var waiting: @Sendable (String) -> Void = { _ in }
        /// A connection made was lost (why), told once per loss: it is tried again with the
        /// backoff.
        var lost: @Sendable (String) -> Void = { _ in }
        /// Connected again after a loss.
        var regained: @Sendable () -> Void = {}
    }

    private let handle: OpaquePointer
    /// Whether it has connected once, whether a fatal failure was told, and whether a
    /// connection made is lost now.
    private let history = Protected((connected: false, fatalTold: false, lost: false))
    private let handlers: Handlers
    private let options: Options
    /// Where the first connection is tried; its retries, until made or stopped.
    private let connecting = DispatchQueue(label: "nmeastream.mqtt.connect")
    private let attempts = Protected((stopped: false, loopStarted: false, told: false))

    /// libmosquitto loaded and set up, once, before the first client; why not, when it could
    /// not be loaded.
    private static let libraryFailure: String? = {
        if let failure = nmeastream_mosquitto_load() { return String(cString: failure) }
        mosquitto_lib_init()
        return nil
    }()

    init(_ options: Options, handlers: Handlers) throws(MQTTError) {
        if let failure = Self.libraryFailure {
            throw .library("libmosquitto is needed for MQTT and could not be loaded (\(failure)); "
                           + "on Debian: sudo apt-get install libmosquitto1")
        }
        self.options = options
        self.handlers = handlers
        guard let handle = mosquitto_new(options.clientID, options.cleanSession, nil) else {
            throw .library("cannot create a client" + (options.clientID == nil && !options.cleanSession ? ": a persistent session needs a client ID" : ""))
        }
        self.handle = handle
        // The callbacks find this object through libmosquitto's user data; it lives until
        // `deinit`, after the network thread has stopped.
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, user, code in
            MQTTConnection.from(user)?.connected(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, user, code in
            MQTTConnection.from(user)?.disconnected(code)
        }
        mosquitto_publish_callback_set(handle) { _, user, messageID in
            MQTTConnection.from(user)?.handlers.published(messageID)
        }
        mosquitto_message_callback_set(handle) { _, user, message in
            guard let connection = MQTTConnection.from(user), let message = message?.pointee, let topic = message.topic else { return }
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
            connection.handlers.message(String(cString: topic), payload)
        }
        mosquitto_log_callback_set(handle) { _, user, level, text in
            // A TLS failure is only told this way.
            guard level & Int32(MOSQ_LOG_ERR) != 0, let text else { return }
            let message = String(cString: text)
            guard message.contains("SSL") || message.contains("TLS") else { return }
            MQTTConnection.from(user)?.failedBeforeConnecting("TLS failed (\(message))")
        }
        mosquitto_reconnect_delay_set(handle, 1, 30, true)
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        if let user = options.url.user {
            try check(mosquitto_username_pw_set(handle, user, options.password ?? options.url.password), "the user name")
        }
        if options.url.isTLS {
            // The CA file given, or the system's certificates.
            let caPath = options.caFile == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(handle, options.caFile, caPath, nil, nil, nil), "TLS")
        }
    }

    deinit {
        mosquitto_loop_stop(handle, true)
        mosquitto_destroy(handle)
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> MQTTConnection? {
        user.map { Unmanaged<MQTTConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private func check(_ code: Int32, _ what: String) throws(MQTTError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .library("\(what): \(String(cString: mosquitto_strerror(code)))") }
    }

    /// Starts connecting, in the background; a broker that is not there yet (refused,
    /// unreachable, its name not found) is tried again with the backoff, and
    /// ``Handlers/waiting`` told once.
    func start() throws(MQTTError) {
        connecting.async { [self] in attempt(delay: 1) }
    }

    private func attempt(delay: Int) {
        guard !attempts.withLock({ $0.stopped }) else { return }
        let code = mosquitto_connect_async(handle, options.url.host, Int32(options.url.port), options.keepAlive)
        if code == MOSQ_ERR_SUCCESS.rawValue {
            let started = attempts.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.loopStarted = mosquitto_loop_start(handle) == MOSQ_ERR_SUCCESS.rawValue
                return state.loopStarted
            }
            if !started, !attempts.withLock({ $0.stopped }) { tellFatal("cannot start libmosquitto's network thread") }
            return
        }
        let reason = code == MOSQ_ERR_ERRNO.rawValue ? Errno.current.description : String(cString: mosquitto_strerror(code))
        let first = attempts.withLock { state -> Bool in
            defer { state.told = true }
            return !state.told
        }
        if first { handlers.waiting("cannot connect to \(options.url.host):\(options.url.port): \(reason)") }
        // A retry that comes after stop() does nothing.
        connecting.asyncAfter(deadline: .now() + .seconds(delay)) { [weak self] in self?.attempt(delay: min(delay * 2, 30)) }
    }

    /// Publishes `payload` to `topic` at QoS 1; the message ID the acknowledgement will carry,
    /// or `nil` when not connected.
    func publish(topic: String, payload: [UInt8], retain: Bool) -> Int32? {
        var messageID: Int32 = 0
        let code = payload.withUnsafeBytes { mosquitto_publish(handle, &messageID, topic, Int32($0.count), $0.baseAddress, 1, retain) }
        return code == MOSQ_ERR_SUCCESS.rawValue ? messageID : nil
    }

    /// Subscribes to `filter` at QoS 1.
    func subscribe(_ filter: String) {
        _ = mosquitto_subscribe(handle, nil, filter, 1)
    }

    /// Disconnects and stops the network thread (or the first connection's retries).
    func stop() {
        let loopStarted = attempts.withLock { state in
            state.stopped = true
            return state.loopStarted
        }
        // An attempt under way finishes first: then nothing starts after this.
        connecting.sync {}
        mosquitto_disconnect(handle)
        if loopStarted { mosquitto_loop_stop(handle, false) }
    }

    private func connected(_ code: Int32) {
        guard code == 0 else {
            // 4: bad user name or password, 5: not authorised. Others (3: server unavailable)
            // pass: it tries again.
            if code == 4 || code == 5 { tellFatal("the broker refused the connection: " + String(cString: mosquitto_connack_string(code))) }
            return
        }
        let regained = history.withLock { history -> Bool in
            history.connected = true
            defer { history.lost = false }
            return history.lost
        }
        handlers.connected()
        if regained { handlers.regained() }
    }

    private func disconnected(_ code: Int32) {
        if code == MOSQ_ERR_TLS.rawValue || code == MOSQ_ERR_TLS_HANDSHAKE.rawValue {
            failedBeforeConnecting("TLS failed (\(String(cString: mosquitto_strerror(code))))")
        }
        handlers.disconnected()
        // 0: closed by this side (stop); anything else, a connection made that was lost, once.
        let stopped = attempts.withLock { $0.stopped }
        let lost = code != 0 && !stopped && history.withLock { history -> Bool in
            guard history.connected, !history.lost else { return false }
            history.lost = true
            return true
        }
        if lost {
            let reason = code == MOSQ_ERR_ERRNO.rawValue ? Errno.current.description : String(cString: mosquitto_strerror(code))
            handlers.lost("lost the broker at \(options.url.host):\(options.url.port): \(reason.prefix(1).lowercased() + reason.dropFirst())")
        }
    }

    /// A TLS failure is fatal only before the first connection: later, it is a network's.
    private func failedBeforeConnecting(_ what: String) {
        guard !history.withLock({ $0.connected }) else { return }
        tellFatal(what + ": check the broker's port and certificate, and --ca-file")
    }

    private func tellFatal(_ text: String) {
        let first = history.withLock { history -> Bool in
            defer { history.fatalTold = true }
            return !history.fatalTold
        }
        if first { handlers.fatal(text) }
    }

}

/// What went wrong with a broker.
public enum MQTTError: Error, Equatable, CustomStringConvertible {
    /// libmosquitto refused a setting or a call.
    case library(String)
    /// The broker refused the connection (its CONNACK code's text).
    case refused(String)
    /// The URL is not one.
    case url(MQTTURL.ParseError)

    public var description: String {
        switch self {
        case .library(let text): text
        case .refused(let text): "the broker refused the connection: \(text)"
        case .url(let error): "bad URL: \(error)"
        }
    }
}
