import CPlatform
import Dispatch
import NMEAStream

/// A receiver as a reference clock for chrony: one more subscriber of its ``GPSMonitor``
/// (so the feed keeps the device open while it runs), that sends chronyd a `SOCK` sample of
/// the receiver's serial time each second (``SerialTimeSampler``), and of its pulse per
/// second when a kernel PPS device is given (``PulsePairing``).
///
/// The sockets are gpsd's (3.25), so existing chrony configurations work: serial time to
/// `DIRECTORY/chrony.clk.NAME.sock`, the pulse to `DIRECTORY/chrony.NAME.sock`, where NAME is
/// the base name of the device path as given (`ttyACM0` for `/dev/ttyACM0`). chronyd makes
/// the sockets (`refclock SOCK /run/chrony.clk.ttyACM0.sock refid NMEA`): start it first.
///
/// ```swift
/// let feed = try ChronyFeed(monitor: GPSMonitor(source: .serial(path: "/dev/ttyACM0", speed: .automatic)),
///                           devicePath: "/dev/ttyACM0")
/// feed.start()
/// ```
public final class ChronyFeed: Sendable {
    /// The device's path, as given.
    public let devicePath: String
    /// Where serial-time samples go.
    public let serialSocketPath: String
    /// Where pulse samples go.
    public let pulseSocketPath: String
    private let monitor: GPSMonitor
    private let pps: String?
    private let socket: ChronySocket
    private let queue = DispatchQueue(label: "nmeastream.chrony")
    private let state: Protected<State>
    private let events: (@Sendable (Event) -> Void)?

    /// A change in what reaches chronyd, told as it happens (not per sample).
    public enum Event: Sendable, Equatable {
        /// Samples reach the socket at `socket`: the first one, or the first after some did not.
        case delivering(socket: String)
        /// A sample did not reach the socket at `socket`, the first since some did (or since
        /// the start): no socket there (`reason` `nil`: chronyd is not running, or has no
        /// `refclock SOCK` line for it), or chronyd refused it (`EACCES`: its socket is
        /// writable by chronyd's user only).
        case notDelivering(socket: String, reason: Errno?)
        /// The PPS device could not be opened: no pulse samples will be sent.
        case ppsUnavailable(device: String)
    }

    private struct State {
        var sampler: SerialTimeSampler
        var pairing = PulsePairing()
        var subscription: Disposable?
        var running = false
        var counts = Counts()
        /// Per socket: whether the last sample reached it; absent before the first.
        var delivering: [String: Bool] = [:]
    }

    /// How many samples went where.
    public struct Counts: Sendable, Equatable {
        /// Serial-time samples sent to chronyd.
        public var serialSent = 0
        /// Pulse samples sent to chronyd.
        public var pulseSent = 0
        /// Samples not sent: no chronyd socket at the path, or it refused them.
        public var unsent = 0
        /// Why the last sample not sent was refused (`EACCES`: chronyd's socket is writable by
        /// its own user only, root for a chronyd run as root).
        public var lastRefusal: Errno?
        /// Whether the PPS device could not be opened.
        public var ppsFailed = false
    }

    /// A feed of `monitor`'s receiver, at `devicePath`, to chronyd's sockets in `directory`;
    /// with `ppsDevice` (`/dev/pps0`), its pulses too. Nothing is read or sent until
    /// ``start()``.
    ///
    /// `events`, when given, is told each change in what reaches chronyd as it happens, on the
    /// feed's threads: return at once.
    public init(monitor: GPSMonitor, devicePath: String, directory: String = "/run", ppsDevice: String? = nil,
                requiredValidFixes: Int = 3, events: (@Sendable (Event) -> Void)? = nil) throws(ChronyFeedError) {
        self.monitor = monitor
        self.events = events
        self.devicePath = devicePath
        let name = devicePath.split(separator: "/").last.map(String.init) ?? devicePath
        serialSocketPath = directory + "/chrony.clk.\(name).sock"
        pulseSocketPath = directory + "/chrony.\(name).sock"
        pps = ppsDevice
        do throws(Errno) {
            socket = try ChronySocket()
        } catch {
            throw ChronyFeedError(errno: error)
        }
        state = Protected(State(sampler: SerialTimeSampler(requiredValidFixes: requiredValidFixes)))
    }

    /// What was sent so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Starts: subscribes to the receiver's fixes (which opens it, if nothing else has), and
    /// reads the PPS device if one was given. A receiver that goes away is subscribed to again
    /// each second until ``stop()``.
    public func start() {
        let started = state.withLock { state -> Bool in
            defer { state.running = true }
            return state.running
        }
        guard !started else { return }
        subscribe()
        if let pps { readPulses(from: pps) }
    }

    /// Stops sending and lets the receiver go (it closes unless someone else reads it).
    public func stop() {
        let subscription = state.withLock { state -> Disposable? in
            state.running = false
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.dispose()
    }

    private func subscribe() {
        let subscription = monitor.fixes(delivery: .newest(capacity: 4)).observe(
            next: { [weak self] fix in self?.take(fix) },
            failed: { [weak self] _ in self?.resubscribeLater() },
            completed: { [weak self] in self?.resubscribeLater() })
        let keep = state.withLock { state -> Bool in
            guard state.running else { return false }
            state.subscription = subscription
            return true
        }
        if !keep { subscription.dispose() }
    }

    private func resubscribeLater() {
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [weak self] in
            guard let self, self.state.withLock({ $0.running }) else { return }
            self.subscribe()
        }
    }

    private func take(_ fix: Fix) {
        let (sample, pulse) = state.withLock { state -> (ChronySample?, ChronySample?) in
            guard let sample = state.sampler.sample(for: fix) else { return (nil, nil) }
            return (sample, state.pairing.sample(after: sample))
        }
        if let sample { send(sample, to: serialSocketPath, pulse: false) }
        if let pulse { send(pulse, to: pulseSocketPath, pulse: true) }
    }

    private func send(_ sample: ChronySample, to path: String, pulse: Bool) {
        let outcome = socket.send(sample, to: path)
        let sent = outcome == .sent
        let changed = state.withLock { state -> Bool in
            if !sent {
                state.counts.unsent += 1
                if case .refused(let error) = outcome { state.counts.lastRefusal = error }
            } else if pulse {
                state.counts.pulseSent += 1
            } else {
                state.counts.serialSent += 1
            }
            defer { state.delivering[path] = sent }
            return state.delivering[path] != sent
        }
        guard changed, let events else { return }
        if sent {
            events(.delivering(socket: path))
        } else if case .refused(let error) = outcome {
            events(.notDelivering(socket: path, reason: error))
        } else {
            events(.notDelivering(socket: path, reason: nil))
        }
    }

    /// Reads pulses on a queue of its own (each fetch waits in the kernel up to a second; a
    /// serial queue of its own runs on an overcommitting thread, so the wait holds up no
    /// other work).
    private func readPulses(from path: String) {
        DispatchQueue(label: "nmeastream.chrony.pps").async { [weak self] in
            guard let pulses = try? PPSDevice(path: path) else {
                self?.state.withLock { $0.counts.ppsFailed = true }
                self?.events?(.ppsUnavailable(device: path))
                return
            }
            while let self, self.state.withLock({ $0.running }) {
                guard let pulse = try? pulses.nextPulse(timeout: 1) else { continue }
                self.state.withLock { $0.pairing.notePulse(at: pulse.time) }
            }
        }
    }
}

/// Why a ``ChronyFeed`` could not be made: the datagram socket it sends on could not be made
/// (the process is out of descriptors, `EMFILE`).
public struct ChronyFeedError: Error, CustomStringConvertible {
    /// The system's error.
    public var errno: Errno

    /// One line, in the system's words.
    public var description: String { "cannot make a socket to send chronyd samples: \(errno)" }
}
