import NMEAStream
import Platform
import Signals
import TimeService

/// A time service `serve` feeds from every device it serves (`--chrony`, `--ntp-shm`): started
/// for each device as it is served (it keeps the device open, so the receiver is read all the
/// time), and what it delivered said when the device goes or `serve` stops. A new time
/// service is one more type that conforms, and one line in `run`.
protocol ServeTimeFeed: Sendable {
    /// Starts feeding from the device at `path`; disposing the result stops it and says what
    /// it did.
    func start(path: String, monitor: GPSMonitor) -> Disposable
}

/// `--chrony`: SOCK samples of each device's serial time (and pulses, with `--pps`) to
/// chronyd's sockets in `directory`.
struct ChronyServeFeed: ServeTimeFeed {
    var directory: String
    var pulses: PulseInput?
    var verbose: Bool

    func start(path: String, monitor: GPSMonitor) -> Disposable {
        let feed: ChronyFeed
        do throws(ChronyFeedError) {
            feed = try ChronyFeed(monitor: monitor, devicePath: path, directory: directory, pulses: pulses) { [verbose] event in
                Self.say(event, device: path, verbose: verbose)
            }
        } catch {
            printError("\(path): \(error)")
            return BlockDisposable {}
        }
        feed.start()
        return BlockDisposable { [pulses] in
            feed.stop()
            // What chronyd got: a user whose chrony shows no NMEA source sees why.
            let counts = feed.counts
            var said = "chrony \(path): \(counted(counts.serialSent, "sample")) sent to \(feed.serialSocketPath)"
            if pulses != nil { said += ", \(counted(counts.pulseSent, "pulse sample")) to \(feed.pulseSocketPath)" }
            if counts.unsent > 0 {
                let remedy = Self.remedy(counts.lastRefusal)
                let why: String = if let refusal = counts.lastRefusal {
                    "refused: \(refusal)" + (remedy.map { "; " + $0 } ?? "")
                } else {
                    "no chronyd socket there: " + (remedy ?? "")
                }
                said += "; \(counts.unsent) not sent (\(why))"
            }
            if counts.ppsFailed, let pulses { said += "; the pulses (\(pulses)) could not be read" }
            printError(said)
        }
    }

    /// What to do when samples do not reach chronyd (`reason` `nil`: no socket there); `nil`
    /// when there is no advice for the reason.
    static func remedy(_ reason: Errno?) -> String? {
        switch reason {
        case nil: "start chronyd first, with its refclock SOCK line"
        case .permissionDenied?: "chronyd's socket is writable by chronyd's user only: run serve as that user (root)"
        default: nil
        }
    }

    /// What reaches chronyd, as it changes: failures always, the first delivery with `--verbose`.
    static func say(_ event: ChronyFeed.Event, device: String, verbose: Bool) {
        switch event {
        case .notDelivering(let socket, nil):
            printError("chrony \(device): no chronyd socket at \(socket): " + remedy(nil)!)
        case .notDelivering(let socket, let reason?):
            printError("chrony \(device): \(socket) refused the sample: \(reason)" + (remedy(reason).map { "; " + $0 } ?? ""))
        case .ppsUnavailable(let pps):
            printError("chrony \(device): " + TimeFeedWords.pulsesUnreadable(pps) + ": no pulse samples will be sent")
        case .delivering(let socket):
            if verbose { printError("chrony \(device): samples reach \(socket)") }
        case .receiverUnavailable(let error):
            printError("chrony \(device): " + TimeFeedWords.receiverUnavailable(error))
        case .receiverReading:
            printError("chrony \(device): " + TimeFeedWords.receiverReading)
        }
    }
}

/// `--ntp-shm`: each device's serial time (and pulses, with `--pps`) in ntpd's shared-memory
/// segments, numbered from `units`.
struct NTPSHMServeFeed: ServeTimeFeed {
    var units: NTPSHMUnits
    var pulses: PulseInput?

    func start(path: String, monitor: GPSMonitor) -> Disposable {
        let feed: NTPSHMFeed
        do throws(NTPSHMError) {
            feed = try NTPSHMFeed(monitor: monitor, devicePath: path, units: units, pulses: pulses) { event in
                Self.say(event, device: path)
            }
        } catch {
            printError("ntp-shm \(path): \(error)")
            return BlockDisposable {}
        }
        printError("ntp-shm \(path): serial time in NTP\(feed.serialUnit)" + (pulses.map { ", pulses of \($0) in NTP\(feed.pulseUnit)" } ?? ""))
        feed.start()
        return BlockDisposable { [pulses] in
            feed.stop()
            let counts = feed.counts
            var said = "ntp-shm \(path): \(counted(counts.serialWritten, "sample")) written to NTP\(feed.serialUnit)"
            if let pulses {
                said += counts.ppsFailed ? "; the pulses (\(pulses)) could not be read"
                    : ", \(counts.pulseWritten) pulse samples to NTP\(feed.pulseUnit)"
            }
            printError(said)
        }
    }

    /// What can be written, as it changes.
    static func say(_ event: NTPSHMFeed.Event, device: String) {
        switch event {
        case .ppsUnavailable(let pps):
            printError("ntp-shm \(device): " + TimeFeedWords.pulsesUnreadable(pps) + ": no pulse samples will be written")
        case .receiverUnavailable(let error):
            printError("ntp-shm \(device): " + TimeFeedWords.receiverUnavailable(error))
        case .receiverReading:
            printError("ntp-shm \(device): " + TimeFeedWords.receiverReading)
        }
    }
}

/// What both time feeds say of their pulses and their receiver, in one wording.
enum TimeFeedWords {
    /// The pulses at `pps` (a PPS device's path, or DCD) cannot be read.
    static func pulsesUnreadable(_ pps: String) -> String {
        pps == PulseInput.carrierDetect.description ? "its line's DCD cannot be watched" : "the PPS device \(pps) cannot be opened"
    }

    /// The receiver cannot be read, and why.
    static func receiverUnavailable(_ error: GPSError) -> String { "no samples: \(error.message); tried again every second" }

    /// It is read again.
    static let receiverReading = "reading the receiver again"
}
