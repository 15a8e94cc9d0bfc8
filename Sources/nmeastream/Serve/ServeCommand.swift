import ArgumentParser
import Dispatch
import GPSDProtocol
import NMEAServer
import NMEAStream
import TimeService
import Platform

/// `nmeastream serve`: gpsd's protocol on gpsd's port, so that every program on the machine
/// (and every gpsd client) shares the receivers.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Share receivers with every program on the machine, over gpsd's protocol.",
        discussion: """
            Listens for gpsd clients (gpspipe, cgps, Python's gps module and every program \
            built on libgps) on 127.0.0.1:2947 and [::1]:2947 unless --listen says \
            otherwise. A device opens when the first client watches it and closes when the \
            last one stops, disconnects or dies (after --linger). With no device named, every \
            port `nmeastream list` classes as a receiver is served, those plugged in later too, \
            and each USB-serial bridge (a candidate) is listened to and served if NMEA or UBX \
            comes from it; \
            one unplugged is announced to its clients, who stay connected, and is served again \
            when it comes back. nmeastream never writes to a receiver: requests to change a \
            device's settings are refused. The one exception is asked for: --corrections \
            writes an NTRIP caster's RTCM 3 corrections to every served receiver while it is \
            open for a watcher (see Documentation/rtk.md).

            --http serves a live page (position, sky plot, signals, track) for a browser, \
            with no internet needed: an open page watches every device, like a gpsd client.

            --nmea serves plain NMEA 0183 over TCP, as a boat's multiplexer does on port \
            10110, for programs that read no gpsd JSON (OpenCPN, Signal K, AvNav, kplex, \
            GeoClue): every valid sentence of every served receiver, AIS included, unchanged, \
            as it arrives. A client there is a watcher like a gpsd client. --nmea-udp sends \
            the same sentences as UDP datagrams.

            A device, connection or upstream that stays open but sends nothing for five of \
            its cycles (--stale) is announced to its clients as gone, closed, and opened again \
            while they watch.

            --chrony makes each served receiver a reference clock for chrony: SOCK samples \
            of its serial time to /run/chrony.clk.DEVICE.sock (and of its pulse per second \
            to /run/chrony.DEVICE.sock with --pps), gpsd's sockets; the receivers are then \
            read all the time.

            --ntp-shm does the same for ntpd, ntpsec and chronyd through ntpd's shared-memory \
            segments, in gpsd's layout and numbering: the first receiver's serial time in \
            NTP0 and its pulse (--pps) in NTP1, the next receiver's in NTP2 and NTP3; as \
            another user than root, from NTP2 (units 0 and 1 are root's).

            Exit codes: 0 stopped by a signal; 64 usage error; 69 udev is not available to \
            find receivers, or the port cannot be listened on (gpsd may hold it).

            Examples:
              nmeastream serve
              nmeastream serve /dev/ttyACM0 --speed 9600
              nmeastream serve --listen 0.0.0.0:2947 --linger 5
              nmeastream serve --http 8080            # the page, on this machine
              nmeastream serve --http 0.0.0.0:8080    # the page, to the network
              nmeastream serve --nmea 0.0.0.0:10110   # NMEA for chart plotters
              nmeastream serve --nmea-udp 192.168.1.255:10110    # NMEA broadcast
              # chrony.conf: refclock SOCK /run/chrony.clk.ttyACM0.sock
              nmeastream serve /dev/ttyACM0 --chrony
              # ntp.conf: refclock shm unit 0 refid NMEA
              sudo nmeastream serve /dev/ttyACM0 --ntp-shm
            """
    )

    @Argument(help: "The serial devices to serve, or network receivers' URLs (tcp://, udp://, gpsd://; see `nmeastream read --help`); every receiver plugged in when left out.")
    var devices: [String] = []

    @Option(name: [.customLong("speed"), .customLong("baud")], parsing: .unconditional, help: "The speed in bits per second, or auto to find it.")
    var speed: SpeedArgument = SpeedArgument(speed: .automatic)

    @Option(name: .customLong("listen"), parsing: .singleValue,
            help: "An address to listen on, HOST:PORT or [IPv6]:PORT (repeatable; default 127.0.0.1:2947 and [::1]:2947).")
    var listen: [HostAndPort] = []

    @Option(name: .customLong("http"), parsing: .singleValue,
            help: "Also serve the live web page on PORT (loopback), HOST:PORT or [IPv6]:PORT (repeatable; default off).")
    var http: [PortOrAddress] = []

    @Option(name: .customLong("nmea"), parsing: .singleValue,
            help: "Also serve plain NMEA 0183 over TCP (OpenCPN, Signal K, AvNav, kplex, GeoClue) on PORT (loopback; 10110 by custom), HOST:PORT or [IPv6]:PORT (repeatable; default off).")
    var nmeaFeed: [PortOrAddress] = []

    @Option(name: .customLong("nmea-udp"), parsing: .singleValue,
            help: "Also send every sentence as a UDP datagram to HOST:PORT: a unicast, broadcast or multicast address (repeatable; default off). The receivers are then read all the time.")
    var nmeaDatagrams: [HostAndPort] = []

    @Flag(help: "Send chrony SOCK samples of each receiver's time (see Documentation/time-service.md).")
    var chrony = false

    @Flag(name: .customLong("ntp-shm"),
          help: "Write each receiver's time to ntpd's shared-memory segments (NTP0 and NTP1 for the first, as gpsd does), for ntpd, ntpsec or chronyd.")
    var ntpSHM = false

    @Option(name: .customLong("ntp-shm-unit"), parsing: .unconditional,
            help: "With --ntp-shm: the first unit to use (default 0 as root, else 2), when another program holds the first ones.")
    var ntpSHMUnit: Int?

    @Flag(help: "Also say when each device is opened for its first watcher and closed after its last, and when samples start reaching chronyd. Failures are always said, when they happen.")
    var verbose = false

    @Option(name: .customLong("chrony-dir"), help: "Where chronyd's SOCK sockets are.")
    var chronyDirectory = "/run"

    @Option(help: "Where the one DEVICE named has its pulse per second: a kernel PPS device (/dev/pps0), or dcd for its own line's DCD pin (as root). Sent as PPS to clients that watch with pps, and to chrony or ntpd with --chrony or --ntp-shm.")
    var pps: String?

    /// Where `--pps` says the pulses are.
    var pulses: PulseInput? {
        pps.map { $0.lowercased() == "dcd" ? .carrierDetect : .ppsDevice($0) }
    }

    @Option(help: "How long a device stays open after its last watcher left, in seconds.")
    var linger = Seconds(0)

    @Option(parsing: .unconditional, help: "How long a device, connection or upstream may send nothing before it is closed, its clients told (DEVICE with activated 0) and it is opened again, in seconds; 0: never (default: five of the receiver's cycles, at least 2 s, and 10 s until its rate is known).")
    var stale: Seconds?

    @Option(name: .customLong("request-timeout"), parsing: .unconditional,
            help: "How long a client may take to send a request, in seconds: a gpsd client that watches nothing (default 60, gpsd's is 180) and the live page (default 10). Bytes that make no request do not count.")
    var requestTimeout: Seconds?

    @Option(name: .customLong("report-release"),
            help: "The release VERSION reports (default: nmeastream's own). Some clients (cgps) warn and pause when it is not their gpsd's: give theirs, such as 3.22.")
    var reportRelease: String?

    @OptionGroup(title: "RTK corrections") var corrections: CorrectionsOptions

    @Flag(help: "Also serve best:, the DEVICEs (two or more, in the order given, the first preferred) merged into one stream: at each epoch, the fix of the one ranked best, with its path in each report's source (see Documentation/several-receivers.md).")
    var best = false

    @Flag(name: .customLong("no-integrity"),
          help: "Do not check each receiver's fixes for jumps, time steps, impossible altitudes or speeds, and signs of spoofing or jamming (see Documentation/several-receivers.md: Integrity checks).")
    var noIntegrity = false

    @OptionGroup(title: "Integrity checks") var integrityLimits: IntegrityLimitOptions

    func validate() throws {
        if let requestTimeout, requestTimeout.value == 0 { throw ValidationError("--request-timeout must be above 0") }
        for device in devices where NetworkEndpoint.isURL(device) {
            do throws(NetworkEndpointError) {
                _ = try NetworkEndpoint(parsing: device)
            } catch {
                throw ValidationError("not a receiver's URL: \(error)")
            }
        }
        if let ntpSHMUnit {
            guard ntpSHM else { throw ValidationError("--ntp-shm-unit goes with --ntp-shm") }
            guard (0...243).contains(ntpSHMUnit) else { throw ValidationError("--ntp-shm-unit must be 0 to 243") }
        }
        if best, Set(devices).count < 2 {
            throw ValidationError("--best needs two DEVICEs or more: the receivers to merge")
        }
        if noIntegrity, !integrityLimits.limits.isEmpty {
            throw ValidationError("--integrity-limit has no use with --no-integrity")
        }
        if pps != nil, devices.count != 1 {
            throw ValidationError("--pps needs exactly one DEVICE: the receiver whose pulses it carries")
        }
    }

    /// The time services asked for, fed from every device served.
    var timeFeeds: [any ServeTimeFeed] {
        var feeds: [any ServeTimeFeed] = []
        if chrony { feeds.append(ChronyServeFeed(directory: chronyDirectory, pulses: pulses, verbose: verbose)) }
        if ntpSHM { feeds.append(NTPSHMServeFeed(units: NTPSHMUnits(first: ntpSHMUnit), pulses: pulses)) }
        return feeds
    }

    mutating func run() throws {
        let configuration = try serverConfiguration()
        let server = GPSDServer(configuration: configuration)
        for feed in timeFeeds { server.subscribeToDevices(feed.start) }
        // Before "serving" is said: a signal sent once it is (by a supervisor, a test) is
        // never lost, nor does SIGHUP's default end the process.
        let stopped = DispatchSemaphore(value: 0)
        let sources = stopOnSignals(hangUp: .ignored) { stopped.signal() }
        do {
            announce(server, listening: try server.start().map(GPSDServer.hostAndPort))
        } catch let error as GPSError {
            server.stop()
            printError(error.message)
            throw ExitCode.unavailable
        } catch let error as GPSDServer.ListenError {
            server.stop()
            printError(error.description + Self.advice(for: error))
            throw ExitCode.unavailable
        } catch {
            server.stop()
            printError("cannot serve: \(error)")
            throw ExitCode.unavailable
        }
        stopped.wait()
        server.stop()
        ServeSummary(server: server, corrections: configuration.corrections).say()
        withExtendedLifetime(sources) {}
    }

    /// The server's configuration, from the options.
    func serverConfiguration() throws -> GPSDServer.Configuration {
        let addresses = listen.isEmpty
            ? [HostAndPort(host: "127.0.0.1", port: 2947), HostAndPort(host: "::1", port: 2947)] : listen
        var configuration = GPSDServer.Configuration(
            devices: devices, speed: speed.speed, listen: addresses.map { ($0.host, $0.port) },
            linger: linger.duration,
            version: reportRelease.map { VersionInfo(release: $0, revision: $0) } ?? .nmeastream)
        // No device named: every receiver plugged in, now and later.
        configuration.followsHotplug = devices.isEmpty
        configuration.events = { [verbose] event in Self.say(event, verbose: verbose) }
        configuration.http = http.flatMap(\.addresses).map { ($0.host, $0.port) }
        if let stale { configuration.staleLimit = stale.value == 0 ? .never : .after(stale.duration) }
        configuration.nmeaFeed = nmeaFeed.flatMap(\.addresses).map { ($0.host, $0.port) }
        configuration.corrections = try corrections.feed()
        configuration.integrity = noIntegrity ? nil : integrityLimits.thresholds
        if best {
            var seen = Set<String>()
            configuration.merged = devices.filter { seen.insert($0).inserted }
        }
        if let pulses, let device = devices.first { configuration.pulseInputs = [device: pulses] }
        configuration.nmeaDatagrams = nmeaDatagrams.map { ($0.host, $0.port) }
        if let requestTimeout {
            configuration.requestTimeout = requestTimeout.duration
            configuration.httpRequestTimeout = configuration.requestTimeout
        }
        // Started by systemd from nmeastream.socket: its sockets, already bound.
        configuration.listeningSockets = socketsFromSystemd()
        if !configuration.listeningSockets.isEmpty, !listen.isEmpty {
            printError("--listen is ignored: systemd passed the sockets to listen on")
        }
        return configuration
    }

    /// What is served, and where: said once listening.
    func announce(_ server: GPSDServer, listening: [String]) {
        let served = devices.isEmpty ? "every receiver plugged in" : devices.joined(separator: ", ")
        let now = devices.isEmpty ? " (now: \(server.devicePaths.isEmpty ? "none" : server.devicePaths.joined(separator: ", ")))" : ""
        printError("serving \(served)\(now) on \(listening.joined(separator: ", "))")
        let pages = server.webAddresses.map { "http://\(GPSDServer.hostAndPort($0))/" }
        if !pages.isEmpty { printError("live page on \(pages.joined(separator: ", "))") }
        let feeds = server.nmeaFeedAddresses.map(GPSDServer.hostAndPort)
        if !feeds.isEmpty { printError("NMEA feed on \(feeds.joined(separator: ", "))") }
        let datagrams = nmeaDatagrams.map { $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\($0.host):\($0.port)" }
        if !datagrams.isEmpty { printError("NMEA datagrams to \(datagrams.joined(separator: ", "))") }
    }

    /// What to do about an address that cannot be listened on: the option that chooses another.
    static func advice(for error: GPSDServer.ListenError) -> String {
        switch error.listener {
        // Only gpsd's own port is likely to be gpsd's.
        case .gpsd where error.address.hasSuffix(":2947"):
            "; gpsd may hold it: `sudo systemctl stop gpsd.socket gpsd` frees it, or choose another port with --listen"
        case .gpsd: "; choose another with --listen"
        case .page: "; choose another with --http"
        case .nmeaFeed: "; choose another with --nmea"
        case .nmeaDatagrams: "; check the address given to --nmea-udp"
        }
    }
}
