import ArgumentParser
import Dispatch
import NMEAStream

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Read a GPS receiver and print its fixes (the default command).",
        discussion: """
            With no device named, the best receiver plugged in is used (see `nmeastream list`), \
            at the speed found by listening; which one is said on standard error. \
            The device is opened exclusively, set to raw 8N1 and read until the count is reached, \
            the device goes away, or Ctrl-C; its settings are restored on the way out. With \
            --speed auto the speed is found by listening (nothing is written to the receiver).

            A receiver over the network is named by a URL: tcp://HOST:PORT (an NMEA server, \
            such as a boat's multiplexer), udp://[ADDRESS]:PORT (NMEA datagrams: sent to any of \
            this machine's addresses, or to the one given, or to a multicast group, joined) or \
            gpsd://HOST[:PORT][/DEVICE] (an upstream gpsd, whose receiver's \
            own bytes nmeastream decodes). A connection that fails or drops is tried again, with \
            a wait growing from 1 s to 30 s; each is said on standard error.

            With --corrections, an RTK receiver (a u-blox ZED-F9P, say) is fed the RTCM 3 \
            corrections of an NTRIP caster's mountpoint while it is read: each checked frame \
            is written to it unchanged (the only thing nmeastream ever writes to a receiver), \
            and its position goes to the caster every --gga-interval seconds. The fix's status \
            then says DGPS, RTK float or RTK fixed.

            Exit codes: 0 success; 64 usage error; 69 no receiver found, or the device cannot be \
            used (missing, permission denied, busy, not a serial device, no NMEA at any speed); \
            74 the device went away or failed while reading; 75 no fix before --timeout.

            Examples:
              nmeastream
              nmeastream --format json --count 10
              nmeastream --watch
              nmeastream read /dev/ttyACM0
              nmeastream read --speed auto --format json --count 10 /dev/ttyUSB0
              nmeastream read tcp://192.168.1.20:10110
              nmeastream read udp://:10110
              nmeastream read /dev/ttyACM0 --corrections ntrip://caster.example.org/MOUNT
            """,
        aliases: ["stream"]
    )

    @Argument(help: "The serial device, such as /dev/ttyACM0 or a /dev/serial/by-id/ link, or a network receiver's URL (tcp://, udp://, gpsd://); the best receiver plugged in when left out.")
    var devicePath: String?

    @Option(name: .customLong("device"), help: "The serial device (the same as the argument).")
    var deviceOption: String?

    @Option(name: [.customLong("speed"), .customLong("baud")], parsing: .unconditional,
            help: "The speed in bits per second (4800 to 921600), or auto to find it (default: 9600 for a named device, auto otherwise).")
    var speed: SpeedArgument?

    /// The device named, by argument or option.
    var device: String? { devicePath ?? deviceOption }

    @OptionGroup var output: OutputOptions

    @OptionGroup var limit: CountOption

    @Flag(help: "With no device named: wait for a receiver to be plugged in, and carry on with the next one when it is unplugged.")
    var watch = false

    @Option(parsing: .unconditional, help: "Give up, with exit code 75, when no fix (of --min-mode) has come after this many seconds.")
    var timeout: Seconds?

    @Option(help: "Only fixes at least this good are printed and counted: 2d or 3d.")
    var minMode: MinimumMode?

    @OptionGroup(title: "RTK corrections") var corrections: CorrectionsOptions

    @Flag(help: "Check each fix's integrity (position jumps, time steps, impossible altitudes or speeds, signs of spoofing or jamming): each event on standard error, each fix flagged in the output (see Documentation/several-receivers.md: Integrity checks).")
    var integrity = false

    @OptionGroup(title: "Integrity checks") var integrityLimits: IntegrityLimitOptions

    func validate() throws {
        if !integrity, !integrityLimits.limits.isEmpty { throw ValidationError("--integrity-limit goes with --integrity") }
        if devicePath != nil, deviceOption != nil {
            throw ValidationError("name the device once: as the argument or with --device")
        }
        if let timeout, timeout.value == 0 { throw ValidationError("--timeout must be above 0") }
        if let devicePath, UnknownCommand.isOne(devicePath) { throw ValidationError(UnknownCommand.message(devicePath)) }
        if device != nil, watch {
            throw ValidationError("--watch follows the best receiver plugged in; leave the device out")
        }
        if device == nil, speed != nil {
            throw ValidationError("--speed needs a device; without one, the speed is found by listening")
        }
        if let device, NetworkEndpoint.isURL(device) {
            if speed != nil { throw ValidationError("--speed is a serial device's; \(device) is reached over the network") }
            do throws(NetworkEndpointError) {
                _ = try NetworkEndpoint(parsing: device)
            } catch {
                throw ValidationError("not a receiver's URL: \(error)")
            }
        }
    }

    func run() throws {
        let source: GPSSource = if let device {
            try GPSSource.named(device, speed: speed?.speed ?? 9600)
        } else if watch {
            .watch
        } else {
            .automatic
        }
        // Said before waiting, so that a silent command is not taken for a stuck one. (The
        // reader says which receiver it chose, now or when one comes.)
        if watch, let ports = try? PortDiscovery.ports(), !ports.contains(where: { $0.kind != .other }) {
            printError("no receiver plugged in; waiting for one (Ctrl-C to stop)")
        }
        try readFixes(from: source, options: output, count: limit.count, timeout: timeout?.value,
                      minimumMode: minMode?.mode ?? .unknown, corrections: corrections.feed(),
                      integrity: integrity ? integrityLimits.thresholds : nil)
    }
}
