import Platform
import Dispatch
import NMEAStream

/// A receiver as a reference clock for chrony: one more subscriber of its ``GPSMonitor``
/// (so the feed keeps the device open while it runs), that sends chronyd a `SOCK` sample of
/// the receiver's serial time each second (``SerialTimeSampler``), and of its pulse per
/// second when it has one (``PulseInput``, ``PulsePairing``).
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
    private let socket: ChronySocket
    private let state = Protected(State())
    private let events: (@Sendable (Event) -> Void)?
    /// Set once, right after creation: its samples come back to this feed.
    private let source = Protected<TimeSampleSource?>(nil)

    /// A change in what reaches chronyd, told as it happens (not per sample).
    public enum Event: Sendable, Equatable {
        /// Samples reach the socket at `socket`: the first one, or the first after some did not.
        case delivering(socket: String)
        /// A sample did not reach the socket at `socket`, the first since some did (or since
        /// the start): no socket there (`reason` `nil`: chronyd is not running, or has no
        /// `refclock SOCK` line for it), or chronyd refused it (`EACCES`: its socket is
        /// writable by chronyd's user only).
        case notDelivering(socket: String, reason: Errno?)
        /// The pulses (`device`: a PPS device's path, or `DCD`) could not be read: no pulse
        /// samples will be sent.
        case ppsUnavailable(device: String)
        /// The receiver cannot be read (missing, gone, silent: the error says why), so no sample is
        /// made; it is tried again every second. Told again only when the reason changes.
        case receiverUnavailable(GPSError)
        /// The receiver gives fixes again, after ``receiverUnavailable(_:)``.
        case receiverReading
    }

    private struct State {
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
        /// Whether the pulses could not be read.
        public var ppsFailed = false
    }

    /// A feed of `monitor`'s receiver, at `devicePath`, to chronyd's sockets in `directory`;
    /// with `pulses` (a kernel PPS device, or the line's DCD), its pulses too. Nothing is read
    /// or sent until ``start()``.
    ///
    /// `events`, when given, is told each change in what reaches chronyd as it happens, on the
    /// feed's threads: return at once.
    public init(monitor: GPSMonitor, devicePath: String, directory: String = "/run", pulses: PulseInput? = nil,
                requiredValidFixes: Int = 3, events: (@Sendable (Event) -> Void)? = nil) throws(ChronyFeedError) {
        self.events = events
        self.devicePath = devicePath
        let name = devicePath.split(separator: "/").last.map(String.init) ?? devicePath
        serialSocketPath = directory + "/chrony.clk.\(name).sock"
        pulseSocketPath = directory + "/chrony.\(name).sock"
        do throws(Errno) {
            socket = try ChronySocket()
        } catch {
            throw ChronyFeedError(errno: error)
        }
        let source = TimeSampleSource(
            monitor: monitor, devicePath: devicePath, pulses: pulses, requiredValidFixes: requiredValidFixes,
            samples: { [weak self] sample, kind in self?.send(sample, kind) },
            ppsUnavailable: { [weak self] in
                self?.state.withLock { $0.counts.ppsFailed = true }
                if let pulses { self?.events?(.ppsUnavailable(device: pulses.description)) }
            },
            receiverChanged: { [weak self] change in
                switch change {
                case .unavailable(let error): self?.events?(.receiverUnavailable(error))
                case .reading: self?.events?(.receiverReading)
                }
            })
        self.source.withLock { $0 = source }
    }

    /// What was sent so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Starts: subscribes to the receiver's fixes (which opens it, if nothing else has), and
    /// reads its pulses if it has them. A receiver that goes away is subscribed to again
    /// each second until ``stop()``.
    public func start() {
        source.withLock { $0 }?.start()
    }

    /// Stops sending and lets the receiver go (it closes unless someone else reads it).
    public func stop() {
        source.withLock { $0 }?.stop()
    }

    private func send(_ sample: TimeSample, _ kind: TimeSampleSource.Kind) {
        let path = kind == .pulse ? pulseSocketPath : serialSocketPath
        let outcome = socket.send(sample, to: path)
        let sent = outcome == .sent
        let changed = state.withLock { state -> Bool in
            if !sent {
                state.counts.unsent += 1
                if case .refused(let error) = outcome { state.counts.lastRefusal = error }
            } else if kind == .pulse {
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
}

/// Why a ``ChronyFeed`` could not be made: the datagram socket it sends on could not be made
/// (the process is out of descriptors, `EMFILE`).
public struct ChronyFeedError: Error, CustomStringConvertible {
    /// The system's error.
    public var errno: Errno

    /// One line, in the system's words.
    public var description: String { "cannot make a socket to send chronyd samples: \(errno)" }
}
