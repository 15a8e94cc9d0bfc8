import ArgumentParser
import Dispatch
import NMEAStream

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show live fixes with no GPS: a recorded receiver played through a virtual serial port.",
        discussion: """
            A recording of a u-blox receiver (GPS, GLONASS, Galileo, BeiDou) that nmeastream \
            carries is played, at the pace it was recorded, into a pseudo-terminal that behaves \
            like a serial GPS; nmeastream reads it exactly as it reads hardware (speed found by \
            listening, decoding, epochs) and prints the fixes, until --count or Ctrl-C.

            Examples:
              nmeastream demo
              nmeastream demo --format json --count 5
            """
    )

    @OptionGroup var output: OutputOptions

    @OptionGroup var limit: CountOption

    @Option(help: "How many times faster than recorded (1 is real time).")
    var speed: Double = 1

    func validate() throws {
        if !(speed > 0) { throw ValidationError("--speed must be above 0") }
    }

    func run() throws {
        let receiver = try VirtualReceiver.opened()
        defer { receiver.close() }
        printError("demo: a recorded u-blox receiver playing on \(receiver.devicePath); Ctrl-C to stop")
        // Playing starts once the reader has had time to open the port: opening drops what
        // waits in it, and the demo should start with a whole epoch.
        let speed = self.speed
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            receiver.play(.bytes(DemoRecording.bytes, pace: .recorded(speed: speed)), loop: true)
        }
        try readFixes(from: .serial(path: receiver.devicePath, speed: .automatic), options: output, count: limit.count,
                      title: "nmeastream demo  (a recorded u-blox receiver on \(receiver.devicePath))")
    }
}
