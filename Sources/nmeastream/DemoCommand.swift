import ArgumentParser
import Dispatch
import NMEAStream

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show live fixes with no GPS: a simulated receiver played through a virtual serial port.",
        discussion: """
            A simulated multi-constellation receiver (GPS, GLONASS, Galileo, BeiDou, NMEA 4.11) \
            going round a park in Delft at 5 m/s, one epoch a second from now, is played into a \
            pseudo-terminal that behaves like a serial GPS; nmeastream reads it exactly as it \
            reads hardware (speed found by listening, decoding, epochs) and prints the fixes, \
            until --count or Ctrl-C. Its clock never runs backwards.

            Examples:
              nmeastream demo
              nmeastream demo --format json --count 5
            """
    )

    @OptionGroup var output: OutputOptions

    @OptionGroup var limit: CountOption

    @Option(parsing: .unconditional, help: "How many times faster than real time (1 is one epoch a second).")
    var speed: Double = 1

    func validate() throws {
        if !(speed > 0) { throw ValidationError("--speed must be above 0") }
    }

    func run() throws {
        let receiver = try VirtualReceiver.opened()
        defer { receiver.close() }
        printError("demo: a simulated receiver going round a park in Delft, on \(receiver.devicePath); Ctrl-C to stop")
        // Playing starts once the reader has had time to open the port: opening drops what
        // waits in it, and the demo should start with a whole epoch.
        let player = DemoPlayer(receiver: receiver, speed: speed)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { player.play(from: 0) }
        try readFixes(from: .serial(path: receiver.devicePath, speed: .automatic), options: output, count: limit.count,
                      title: "nmeastream demo  (a simulated receiver on \(receiver.devicePath))")
    }
}

/// Plays the demo's track in stretches of ten minutes, each starting where the last ended:
/// paced by its own timestamps (so `--speed` applies), and never looping back in time.
private final class DemoPlayer: Sendable {
    private let receiver: VirtualReceiver
    private let speed: Double
    private let track = SyntheticTrack(multiConstellation: true)
    private static let stretch = 600

    init(receiver: VirtualReceiver, speed: Double) {
        self.receiver = receiver
        self.speed = speed
    }

    func play(from first: Int) {
        let bytes = (first..<first + Self.stretch).flatMap { Array(track.epoch($0).utf8) }
        receiver.play(.bytes(bytes, pace: .recorded(speed: speed))) { [self] error in
            if error == nil { play(from: first + Self.stretch) }
        }
    }
}
