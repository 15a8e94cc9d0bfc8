import ArgumentParser
import Dispatch
import NMEAStream

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show live fixes with no GPS: a recorded receiver played through a virtual serial port.",
        discussion: """
            A recording of a u-blox receiver (GPS, GLONASS, Galileo, BeiDou) that nmeastream \\
            carries is played, at the pace it was recorded, into a pseudo-terminal that behaves \\
            like a serial GPS; nmeastream reads it exactly as it reads hardware (speed found by \\
            listening, decoding, epochs) and prints the fixes, until --count or Ctrl-C.

            Examples:
              nmeastream demo
              nmeastream demo --format json --count 5
            """
    )

    @Option(help: "Output format: text (a line per fix), json (gpsd TPV and SKY lines), nmea (valid sentences), csv, gpx.")
    var format: OutputFormat = .text

    @Option(help: "Stop after this many fixes.")
    var count: Int?

    @Option(help: "How many times faster than recorded (1 is real time).")
    var speed: Double = 1

    @Flag(help: "At the end, print counts of sentences and rejects by reason, and the fix rate, to standard error.")
    var stats = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if !(speed > 0) { throw ValidationError("--speed must be above 0") }
    }

    func run() throws {
        let receiver: VirtualReceiver
        do {
            receiver = try VirtualReceiver()
        } catch {
            printError(error.description)
            throw ExitCode(69)
        }
        defer { receiver.close() }
        printError("demo: a recorded u-blox receiver playing on \(receiver.devicePath); Ctrl-C to stop")
        // Playing starts once the reader has had time to open the port: opening drops what
        // waits in it, and the demo should start with a whole epoch.
        let speed = self.speed
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            receiver.play(.bytes(DemoRecording.bytes, pace: .recorded(speed: speed)), loop: true)
        }
        try readFixes(from: .serial(path: receiver.devicePath, speed: .automatic), format: format, count: count, stats: stats,
                      title: "nmeastream demo  (a recorded u-blox receiver on \(receiver.devicePath))")
    }
}
