import ArgumentParser
import Dispatch
import Fleet
import NMEAStream

/// `nmeastream publish`: a receiver's fixes to an MQTT broker, with store and forward.
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a receiver's fixes to an MQTT broker, storing them while it is unreachable.",
        discussion: """
            Each epoch's SKY and TPV go, as gpsd JSON with "device" set to the name, to \
            TOPIC/NAME/sky and TOPIC/NAME/tpv at QoS 1, the last TPV retained. Messages wait \
            in a queue until the broker acknowledges them (with --queue, in an SQLite \
            database in that folder, each message on the disk before it counts: they \
            survive a restart, a crash or a power loss); while the broker is unreachable the \
            queue fills, oldest dropped first past its size (counted), and drains in order \
            when the broker is back. A write to the queue that fails (a full disk) is said at \
            once; messages then wait in memory until the disk takes them again. Without \
            --device or --log, the best receiver plugged in is published.

            With --home-assistant the vehicle also appears in Home Assistant by itself (MQTT \
            discovery): a retained configuration at \
            homeassistant/device_tracker/nmeastream_NAME/config, and each fix's latitude, \
            longitude and gps_accuracy (metres) on TOPIC/NAME/home-assistant, retained.

            Exit codes: 0 done (a log's end) or stopped by a signal, every message \
            acknowledged or on the disk; 64 usage error (a bad URL among them); 66 the log \
            cannot be read; 69 the broker refused the credentials, no receiver, or libmosquitto \
            (or SQLite, with --queue) is not installed; 73 the \
            queue folder cannot hold the queue (missing, a file, not writable); 74 the device \
            failed, or messages were lost (not acknowledged, and not on the disk: no --queue, \
            or the disk refused them).

            Examples:
              nmeastream publish mqtt://broker.local/fleet --id van-7
              nmeastream publish mqtts://user@broker/fleet --password-env MQTT_PASSWORD
              nmeastream publish mqtt://broker/fleet --queue /var/lib/nmeastream/queue
              nmeastream publish mqtt://localhost/test --log drive.nmea --speed 10
              nmeastream publish mqtt://broker.local/fleet --id van-7 --home-assistant
            """
    )

    @OptionGroup var broker: BrokerOptions

    @Option(help: "The serial device to publish, or a network receiver's URL (tcp://, udp://, gpsd://; see `nmeastream read --help`).")
    var device: String?

    @Option(help: "A recorded NMEA log to publish instead of a receiver.")
    var log: String?

    @Option(parsing: .unconditional, help: "With --log: at the pace of its timestamps, this many times faster (as fast as possible without).")
    var speed: Double?

    @Option(help: "The vehicle's name: its topic level and \"device\" (default: the host name).")
    var id: String?

    @Option(help: "A folder for the queue, so that it survives a restart (default: in memory).")
    var queue: String?

    @Option(name: .customLong("queue-size"), help: "The queue's bound: bytes, or with K, M or G; past it the oldest are dropped.")
    var queueSize: ByteCount = ByteCount(bytes: 64 << 20)

    @Option(name: .customLong("drain-timeout"), help: "At a log's end, how long to wait for the broker to take what is queued, in seconds.")
    var drainTimeout = Seconds(30)

    @Flag(name: .customLong("home-assistant"),
          help: "Also announce the vehicle to Home Assistant (MQTT discovery), as a device_tracker on its map.")
    var homeAssistant = false

    @Option(name: .customLong("home-assistant-prefix"), help: "Home Assistant's discovery prefix (default homeassistant).")
    var homeAssistantPrefix: String?

    @OptionGroup(title: "RTK corrections") var corrections: CorrectionsOptions

    func validate() throws {
        if device != nil, log != nil { throw ValidationError("give --device or --log, not both") }
        if log != nil, corrections.url != nil { throw ValidationError("--corrections go to a receiver; a log takes none") }
        if let homeAssistantPrefix {
            guard homeAssistant else { throw ValidationError("--home-assistant-prefix goes with --home-assistant") }
            try validateBrokerName(homeAssistantPrefix, option: "--home-assistant-prefix", isTopicLevel: true)
        }
        if speed != nil, log == nil { throw ValidationError("--speed goes with --log") }
        if let device, NetworkEndpoint.isURL(device) {
            do throws(NetworkEndpointError) {
                _ = try NetworkEndpoint(parsing: device)
            } catch {
                throw ValidationError("not a receiver's URL: \(error)")
            }
        }
        if let speed, !(speed > 0) { throw ValidationError("--speed must be above 0") }
        if try broker.parsedURL().hasWildcards { throw ValidationError("a publisher's topic cannot hold + or #") }
        if let id { try validateBrokerName(id, option: "--id", isTopicLevel: true) }
    }

    mutating func run() throws {
        let source: GPSSource = if let log {
            .log(path: log, pace: speed.map { .recorded(speed: $0, keepingGaps: false) } ?? .asFastAsPossible)
        } else if let device {
            try GPSSource.named(device, speed: .automatic)
        } else {
            .automatic
        }
        var configuration = FixPublisher.Configuration(url: try broker.parsedURL(), name: id ?? hostName())
        configuration.password = try broker.password()
        configuration.caFile = broker.caFile
        configuration.queueFolder = queue
        configuration.queueCapacity = queueSize.bytes
        if homeAssistant { configuration.homeAssistant = HomeAssistantDiscovery(prefix: homeAssistantPrefix ?? "homeassistant") }
        configuration.waiting = { reason in printError("\(reason); the messages wait in the queue until the broker is reachable") }
        configuration.connection = { lost in
            printError(lost.map { "\($0); the messages wait in the queue until it is back" } ?? "the broker is back; sending what waited")
        }
        let folder = queue ?? ""
        configuration.storage = { failure in
            if let failure {
                printError("cannot write the queue in \(folder): \(failure); messages wait in memory until it can (lost if the publisher stops first)")
            } else {
                printError("the queue in \(folder) is written again; every message waiting is on the disk")
            }
        }
        let publisher: FixPublisher
        let feed = try corrections.feed()
        do throws(PublisherError) {
            publisher = try Self.publisher(monitor: GPSMonitor(source: source, corrections: feed), configuration: configuration)
        } catch {
            printError(error.description)
            switch error {
            case .queue(let error):
                if case .library = error.reason { throw ExitCode.unavailable }
                throw ExitCode.cannotCreate
            case .broker(.url): throw ExitCode.validationFailure
            case .broker: throw ExitCode.unavailable
            }
        }
        let movedAside = publisher.status.movedAside
        if movedAside > 0 {
            printError("\(movedAside) message\(movedAside == 1 ? "" : "s") in \(folder) could not be sent (damaged, or not written by nmeastream): "
                       + "moved to the table rejected of queue.sqlite3, not sent")
        }
        // A signal ends the wait below (a receiver never ends by itself).
        let signals = stopOnSignals { publisher.stop() }
        try publisher.start()
        printError("publishing \(source) as \(configuration.name) to \(configuration.url)")
        // A log ends by itself; a receiver runs until a signal (which stops the source).
        let drained = publisher.waitUntilDrained(seconds: drainTimeout.value)
        publisher.stop()
        signals.forEach { $0.cancel() }
        if let feed {
            feed.waitUntilClosed()
            if let summary = CorrectionsOptions.summary(feed.status) { printError(summary) }
        }
        let status = publisher.status
        if let refusal = status.refusal {
            printError("cannot publish to \(configuration.url): \(refusal)")
            throw ExitCode.unavailable
        }
        if let error = publisher.sourceError {
            printError(error.message)
            throw nmeastream.exitCode(for: error)
        }
        var said = "\(counted(status.acknowledged, "message")) acknowledged by the broker"
        if status.dropped > 0 { said += ", \(status.dropped) dropped (the queue was full)" }
        let stored = status.queued - status.unstored
        if !drained, stored > 0 { said += ", \(stored) still queued in \(folder)" }
        if status.unstored > 0 {
            said += ", \(status.unstored) lost" + (queue == nil ? " (no --queue to keep them)" : " (the disk refused them)")
        }
        printError(said)
        if status.unstored > 0 { throw ExitCode.ioError }
    }
}

extension PublishCommand {
    /// The publisher; while another process holds the queue's database locked (a backup),
    /// said once and tried again every second, until it is free or a signal ends the command.
    static func publisher(monitor: GPSMonitor, configuration: FixPublisher.Configuration) throws(PublisherError) -> FixPublisher {
        var said = false
        while true {
            do throws(PublisherError) {
                let publisher = try FixPublisher(monitor: monitor, configuration: configuration)
                if said { printError("the queue in \(configuration.queueFolder ?? "") is free again") }
                return publisher
            } catch {
                guard case .queue(let queueError) = error, case .busy = queueError.reason else { throw error }
                if !said { printError(queueError.description + "; waiting for it") }
                said = true
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .seconds(1))
            }
        }
    }
}

/// A size in bytes: `4096`, `512K`, `64M`, `1G`.
struct ByteCount: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    /// As it is written on the command line: `64M`, `512K`, `4096`.
    var description: String {
        for (unit, size) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes % size == 0 && bytes >= size {
            return "\(bytes / size)\(unit)"
        }
        return "\(bytes)"
    }

    var defaultValueDescription: String { description }

    init?(argument: String) {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let text = argument.uppercased()
        let multiplier = text.last.flatMap { units[$0] } ?? 1
        guard let count = Int(multiplier == 1 ? text : String(text.dropLast())), count > 0 else { return nil }
        // Past a terabyte is no queue size but a typing error (and past Int.max, a trap).
        let (bytes, overflow) = count.multipliedReportingOverflow(by: multiplier)
        guard !overflow, bytes <= 1 << 40 else { return nil }
        self.bytes = bytes
    }
}
