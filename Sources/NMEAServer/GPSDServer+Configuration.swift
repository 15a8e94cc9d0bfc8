import GPSDProtocol
import NIOCore
import NIOPosix
import NMEAStream
import TimeService

extension GPSDServer {
    /// What the server serves, where, and its limits.
    public struct Configuration: Sendable {
        /// The devices served, by path, for as long as the server runs (one that goes away is
        /// tried again every second while anyone watches it).
        public var devices: [String]
        /// Whether to serve, besides ``devices``, every port udev classes as a receiver
        /// (``PortKind/gps``): those plugged in at ``GPSDServer/start()`` and those plugged in
        /// later. One unplugged is announced to its watchers (`DEVICE` with `activated` 0), who
        /// stay connected, and leaves the device list until it is plugged in again.
        ///
        /// Each ``PortKind/candidate`` (a USB-serial bridge: the BU-353 puck's PL2303, a receiver
        /// board's CP210x or CH340) is listened to when it appears (``CandidateProbe``: nothing
        /// is written) and served from then on if valid NMEA or UBX arrives; one that sends
        /// nothing valid is closed and left alone until it is plugged in again. Each decision
        /// is told (``ServerEvent/candidateServed(path:reason:)``,
        /// ``ServerEvent/candidateLeftAlone(path:reason:)``) and shown in `DEVICES`
        /// (``DeviceDescription/discovered``).
        public var followsHotplug: Bool = false
        /// Their serial speed: found by listening unless given.
        public var speed: SerialSpeed
        /// The addresses listened on: host and port. Loopback by default: exposing a
        /// receiver's position to the network must be a deliberate choice.
        public var listen: [(host: String, port: Int)]
        /// The addresses the live web page is served on (``GPSDServer/webAddresses``): none by
        /// default. Loopback unless a host is given, as for ``listen``.
        public var http: [(host: String, port: Int)] = []
        /// The addresses the plain NMEA 0183 feed is served on (``GPSDServer/nmeaFeedAddresses``,
        /// port 10110 by custom): none by default. Each client is sent every valid sentence of
        /// every device served, unchanged, with CR LF, as it arrives, and nothing else; it is a
        /// watcher like a gpsd client (it keeps the devices open), with the same limits.
        public var nmeaFeed: [(host: String, port: Int)] = []
        /// Where the same sentences go as UDP datagrams, one sentence each, as a multiplexer
        /// sends them (unicast, broadcast or a multicast group): none by default. With any, the
        /// devices are read all the time, as nobody can tell whether anyone receives them.
        public var nmeaDatagrams: [(host: String, port: Int)] = []
        /// Listening sockets already bound (from systemd: ``socketsFromSystemd()``); when
        /// there are any, ``listen`` is not bound.
        public var listeningSockets: [Int32] = []
        /// How long a device stays open after its last watcher left (zero: it closes at once).
        public var linger: Duration
        /// How long an open device, connection or upstream may send nothing before it is
        /// closed, its watchers told (`DEVICE` with `activated` 0, as for an unplug), and opened
        /// again while they watch (``silentStreamsClosed``). Five of the receiver's cycles by
        /// default (``StaleLimit/automatic``).
        public var staleLimit: StaleLimit = .automatic
        /// Where the pulse per second of each receiver that has one is read (a kernel PPS
        /// device, or the DCD pin of its own line), by the receiver's path: its pulses are read
        /// while the receiver is open, each paired with the second it began, and sent as `PPS`
        /// to clients that watch with `pps` (with u-blox's TIM-TP quantization error when the
        /// receiver gives it). None by default.
        public var pulseInputs: [String: PulseInput] = [:]
        /// Opens a receiver's pulses: its path and where they are read (a stand-in in tests).
        package var openPulses: @Sendable (String, PulseInput) throws -> any PulseSource = { try $1.open(devicePath: $0) }
        /// RTK corrections written to every served receiver while it is open for a watcher
        /// (one connection to the caster, made while some receiver is open): none by default.
        public var corrections: CorrectionsFeed?
        /// The limits of the integrity checks run on every device (``IntegrityCheck``): a fix
        /// that fails one is still reported, its `TPV` listing the checks in `integrity`, and
        /// each event is told as ``ServerEvent/integrity(path:event:)``. `nil`: no checks. On,
        /// with the defaults, unless set.
        public var integrity: IntegrityThresholds? = IntegrityThresholds()
        /// The devices merged into one more, ``mergedDevicePath`` (``GPSMonitor/init(merging:names:name:selection:integrity:retryInterval:scheduler:)``),
        /// in the order of preference: two or more of ``devices``, or none (the default) for
        /// no merged device.
        public var merged: [String] = []
        /// What `VERSION` says.
        public var version: VersionInfo
        /// The most clients at once (gpsd clients, the page's and the NMEA feed's connections
        /// together, the page and the feed each within a quarter of it: ``ConnectionAdmission``);
        /// one more is told so and disconnected. Lowered at ``GPSDServer/start()`` to what the
        /// process's descriptor limit allows (``GPSDServer/connectionLimit``), so that
        /// accepting never runs out of descriptors.
        public var maximumClients: Int
        /// The longest request accepted, in bytes.
        public var maximumRequestLength: Int
        /// Bytes that may wait for a client that does not read before its reports are dropped.
        public var clientBacklog: Int
        /// How many threads serve clients: each client's connection lives on one of them,
        /// and a device's report is handed to each thread once (one wake-up per thread per
        /// report) and written there to that thread's clients. One per core by default.
        public var eventLoops: Int = System.coreCount
        /// How long a client's backlog may stay full (reports dropped all along) before it is
        /// disconnected.
        public var slowClientTimeout: Duration
        /// How long a gpsd client that watches nothing may go without completing a request
        /// before it is disconnected (gpsd's is 3 minutes); bytes that make no request do not
        /// count.
        public var requestTimeout: Duration = .seconds(60)
        /// How long the page's client may take to send a whole request (from connecting, or
        /// from the last response), however it trickles it.
        public var httpRequestTimeout: Duration = .seconds(10)
        /// Called with each ``ServerEvent`` as it happens, on whichever thread it happened
        /// (a reader's, an event loop's): return at once. `nil`: nobody is told.
        public var events: (@Sendable (ServerEvent) -> Void)?

        /// A configuration serving `devices` on gpsd's port, on loopback.
        public init(devices: [String], speed: SerialSpeed = .automatic, listen: [(host: String, port: Int)] = [("127.0.0.1", 2947), ("::1", 2947)],
                    linger: Duration = .zero, version: VersionInfo = .nmeastream,
                    maximumClients: Int = 1024, maximumRequestLength: Int = 4096, clientBacklog: Int = 256 * 1024,
                    slowClientTimeout: Duration = .seconds(10)) {
            self.devices = devices
            self.speed = speed
            self.listen = listen
            self.linger = linger
            self.version = version
            self.maximumClients = maximumClients
            self.maximumRequestLength = maximumRequestLength
            self.clientBacklog = clientBacklog
            self.slowClientTimeout = slowClientTimeout
        }
    }
}
