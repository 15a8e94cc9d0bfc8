import Dispatch
import Signals
import Synchronization
import Platform

/// A client of an NTRIP caster: it connects to a mountpoint, checks what arrives as RTCM 3
/// frames, and hands each good frame on, unchanged and in order, for a receiver to be written
/// (RTK corrections). Like a network receiver, it never gives up on its caster: a caster that
/// is down, refuses, or drops the connection is tried again after a wait (1 s, doubling to
/// 30 s, 1 s again once a connection brought data), and each failure is told with the wait.
///
/// A refusal that waiting will not mend (the credentials, a mountpoint the caster does not
/// have) is told as such (``Event/refused(_:)``), and tried again at the longest wait, in case
/// the caster is being set up.
///
/// A caster that keeps the connection open but sends nothing for ``silenceLimit`` (a hung
/// caster, a link that died without a word) is dropped and tried again like one that closed.
/// One that answers in something other than NTRIP (a proxy's or a captive portal's page,
/// endless headers), or whose stream holds no RTCM 3 frame in ``garbageLimit`` bytes, is
/// refused once (``NTRIPRefusal/notNTRIP(_:)``), dropped, and tried again at the longest
/// wait: it costs one line and a little work every 30 s, not a line per chunk and a core.
///
/// Everything runs on the client's own queue; ``start()`` and ``stop()`` may be called from
/// any thread.
public final class NTRIPClient: @unchecked Sendable {
    /// What happens, as it happens (on the client's queue: return at once).
    public enum Event: Sendable {
        /// The caster accepted the request: the mountpoint's stream follows.
        case streaming(endpoint: String)
        /// A checked frame, to pass on as it is.
        case frame(RTCM3Frame)
        /// The connection failed or was lost; it is tried again after the wait said.
        case interrupted(NetworkInterruption)
        /// The caster refused the mountpoint, for a reason a new attempt will not mend alone.
        case refused(NTRIPRefusal)
        /// The caster's sourcetable, asked for with an empty mountpoint (`ntrip://HOST/`).
        case sourcetable(Sourcetable)
    }

    /// The caster's mountpoint (its password never printed: ``NTRIPEndpoint/description``).
    public let endpoint: NTRIPEndpoint
    /// Which NTRIP the requests speak.
    public let version: NTRIPVersion
    /// How long a connection may bring nothing before it is dropped and made again.
    public let silenceLimit: Duration
    /// The default ``silenceLimit``: casters send a frame a second or more, and a network
    /// mountpoint answers a position within a few seconds.
    public static let defaultSilenceLimit = Duration.seconds(30)
    /// How many bytes of a stream may pass without a good RTCM 3 frame before the caster is
    /// taken for one that does not send RTCM 3: 64 KiB, minutes of a real caster's stream.
    public static let garbageLimit = 64 * 1024
    /// Where the client's connection is read and its state kept.
    private let executor = SerialQueueExecutor(label: "nmeastream.ntrip")
    private var queue: DispatchQueue { executor.queue }
    private let events: @Sendable (Event) -> Void
    private let source: NetworkByteSource
    // Confined to `queue`.
    private var decoder = NTRIPResponseDecoder()
    private var framer = RTCM3Framer()
    private var table: [UInt8] = []
    private var head: NTRIPResponseDecoder.Head?
    private var isStarted = false
    /// Whether a refusal or the table was told on this connection.
    private var answered = false
    private let tally = Protected(RTCM3Framer.Counts())
    /// The counts of the connections before this one.
    private var earlier = RTCM3Framer.Counts()
    /// Bytes of the stream since its last good frame.
    private var sinceLastFrame = 0
    /// While connected: when the caster last sent something (uptime, nanoseconds).
    private var lastHeard: UInt64?
    private var silenceTimer: Disposable?

    /// A client of `endpoint` (with its password, if any, already in it), speaking `version`;
    /// `events` is told what happens.
    public init(endpoint: NTRIPEndpoint, version: NTRIPVersion = .v2, silenceLimit: Duration = NTRIPClient.defaultSilenceLimit,
                events: @escaping @Sendable (Event) -> Void) {
        self.endpoint = endpoint
        self.version = version
        self.silenceLimit = silenceLimit
        self.events = events
        let request = NTRIPRequest.bytes(for: endpoint, version: version, agent: "nmeastream/\(NMEAStreamRelease.version)")
        let named = endpoint.description
        // The source's callbacks reach the client weakly: the client owns the source.
        let link = Protected(WeakClient())
        source = NetworkByteSource(
            endpoint: .tcp(host: endpoint.host, port: endpoint.port), readLoop: EventLoopDeviceReadLoop(), greeting: request,
            connected: { _ in link.withLock { $0.client }?.connectionMade() },
            interrupted: { interruption in
                // A caster closes the connection after a refusal or its table: said by then.
                guard link.withLock({ $0.client })?.connectionEnded() ?? true else { return }
                events(.interrupted(NetworkInterruption(endpoint: named, reason: interruption.reason, retryIn: interruption.retryIn)))
            })
        link.withLock { $0.client = self }
    }

    private struct WeakClient {
        weak var client: NTRIPClient?
    }

    /// Connects, and keeps connecting, until ``stop()``.
    public func start() {
        queue.async { [self] in
            guard !isStarted else { return }
            isStarted = true
            watchForSilence()
            source.start(on: executor, deliver: { [weak self] chunk in self?.take(Array(chunk)) }, end: { _ in })
        }
    }

    /// Disconnects, and connects no more. Returns once the connection is closed, unless called
    /// from an event (on the client's queue: it closes right after).
    public func stop() {
        let halt = { [self] () -> DispatchGroup? in
            guard isStarted else { return nil }
            silenceTimer?.dispose()
            silenceTimer = nil
            source.stop()
            return source.released
        }
        if executor.isCurrent {
            _ = halt()
        } else {
            queue.sync(execute: halt)?.wait()
        }
    }

    /// Sends the receiver's position (a GGA sentence, with its line end) to the caster, which a
    /// network mountpoint (VRS) needs to make corrections for where the receiver is; dropped
    /// while not connected.
    public func send(position sentence: String) {
        queue.async { [self] in
            guard case .stream? = head else { return }
            _ = source.write(Array(sentence.utf8))
        }
    }

    /// The frames handed on so far by message type, and what was dropped, over every
    /// connection.
    public var counts: RTCM3Framer.Counts { tally.withLock { $0 } }

    // MARK: On the client's queue

    /// Checks a few times per ``silenceLimit`` whether the connection has gone quiet, on the
    /// client's executor.
    private func watchForSilence() {
        let limit = silenceLimit.clampedNanoseconds
        let period = Duration.nanoseconds(Int64(max(limit / 4, 10_000_000)))
        silenceTimer = executor.schedule(after: period) { [weak self] in
            guard let self, silenceTimer != nil else { return }
            if let lastHeard, DispatchTime.now().uptimeNanoseconds &- lastHeard >= limit {
                self.lastHeard = nil
                let tenths = limit / 100_000_000
                source.drop("the caster sent nothing for \(tenths / 10)\(tenths % 10 == 0 ? "" : ".\(tenths % 10)") s")
            }
            watchForSilence()
        }
    }

    private func connectionMade() {
        lastHeard = DispatchTime.now().uptimeNanoseconds
        answered = false
        decoder = NTRIPResponseDecoder()
        earlier = earlier.adding(framer.counts)
        framer = RTCM3Framer()
        table = []
        head = nil
        sinceLastFrame = 0
    }

    /// The caster closed the connection: a refusal it sent just before is told now. Returns
    /// whether the loss is worth telling (not when the caster had answered with a refusal or
    /// its table, which ends a connection).
    private func connectionEnded() -> Bool {
        lastHeard = nil
        do throws(NTRIPResponseDecoder.Failure) {
            try decoder.finish { event in handle(event) }
        } catch {
            refuse(.notNTRIP(error.description))
        }
        if case .sourcetable? = head { tableEnded() }
        defer { answered = false }
        return !answered
    }

    private func refuse(_ refusal: NTRIPRefusal) {
        answered = true
        events(.refused(refusal))
    }

    private func take(_ bytes: [UInt8]) {
        if lastHeard != nil { lastHeard = DispatchTime.now().uptimeNanoseconds }
        // Nothing more is read of a connection refused for what it sent.
        guard !answered || head != nil else { return }
        do throws(NTRIPResponseDecoder.Failure) {
            try decoder.feed(bytes) { event in handle(event) }
        } catch {
            misbehaved(error.description)
            return
        }
        // Out of the decoder's feed, which the drop resets.
        if sinceLastFrame > Self.garbageLimit {
            misbehaved("no RTCM 3 frame in the stream's last \(Self.garbageLimit / 1024) KiB")
        }
    }

    /// The caster answered in something other than NTRIP or RTCM 3: refused once, dropped,
    /// tried again at the longest wait.
    private func misbehaved(_ reason: String) {
        refuse(.notNTRIP(reason))
        decoder = NTRIPResponseDecoder()
        head = nil
        source.drop(reason, misbehaved: true)
    }

    private func handle(_ event: NTRIPResponseDecoder.Event) {
        switch event {
        case .head(let head):
            self.head = head
            switch head {
            case .stream: events(.streaming(endpoint: endpoint.description))
            case .sourcetable: break
            case .refused(let status, let reason):
                refuse(status == 401 ? .unauthorized(user: endpoint.user) : .refused(status: status, reason: reason))
            }
        case .body(let bytes):
            switch head {
            case .stream?:
                var frames: [RTCM3Frame] = []
                framer.feed(bytes) { frames.append($0) }
                // Bytes since the last frame (counted by whole chunks: a chunk with one resets it).
                sinceLastFrame = frames.isEmpty ? sinceLastFrame + bytes.count : 0
                let counts = earlier.adding(framer.counts)
                tally.withLock { $0 = counts }
                for frame in frames { events(.frame(frame)) }
            case .sourcetable?:
                // Bounded: a table past 1 MB is not one.
                if table.count < 1 << 20 { table += bytes }
                if table.count >= 16, String(decoding: table.suffix(64), as: UTF8.self).contains("ENDSOURCETABLE") { tableEnded() }
            default: break
            }
        }
    }

    /// The table has come whole: told, when it was asked for; else (NTRIP 1's answer for a
    /// mountpoint the caster does not have) a refusal, with the mountpoints it does have.
    private func tableEnded() {
        guard !table.isEmpty else { return }
        let sourcetable = Sourcetable(text: String(decoding: table, as: UTF8.self))
        table = []
        head = nil
        if endpoint.mountpoint.isEmpty {
            answered = true
            events(.sourcetable(sourcetable))
        } else {
            refuse(.noSuchMountpoint(endpoint.mountpoint, available: sourcetable.streams.map(\.mountpoint)))
        }
    }
}

/// Why a caster refused a mountpoint.
public enum NTRIPRefusal: Sendable, Hashable, CustomStringConvertible {
    /// 401: the user or the password is wrong (or missing: `user` `nil`).
    case unauthorized(user: String?)
    /// The caster has no such mountpoint; the ones it lists.
    case noSuchMountpoint(String, available: [String])
    /// Another HTTP status (403 forbidden, 503 busy...).
    case refused(status: Int, reason: String)
    /// What came back is no NTRIP answer (a web server, a proxy's page).
    case notNTRIP(String)

    public var description: String {
        switch self {
        case .unauthorized(nil): "the caster asks for a user and a password"
        case .unauthorized(let user?): "the caster refused the password of \(user)"
        case .noSuchMountpoint(let mount, let available) where available.isEmpty: "the caster has no mountpoint \(mount)"
        case .noSuchMountpoint(let mount, let available):
            "the caster has no mountpoint \(mount); it has \(available.prefix(20).joined(separator: ", "))\(available.count > 20 ? "..." : "")"
        case .refused(let status, let reason): "the caster refused: \(status) \(reason)"
        // What the peer sent is shown escaped and short: it may be anything.
        case .notNTRIP(let what): printable(String(what.prefix(160))) + (what.count > 160 ? "..." : "")
        }
    }
}
