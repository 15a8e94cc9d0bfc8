import ArgumentParser
import Dispatch
import NMEAStream

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Be a GPS receiver: a virtual serial port that other programs can open.",
        discussion: """
            Creates a pseudo-terminal, prints the path of its device side on standard output, \
            and plays a log into it at the pace of its timestamps (looping), or, with no file, \
            a made-up track going round a circle, one epoch a second, until Ctrl-C. Any program \
            that reads serial GPS receivers can open the path: nmeastream itself, gpsd, a logger.

            Examples:
              nmeastream simulate
              nmeastream simulate --link /tmp/gps0 drive.nmea
              nmeastream simulate --link /tmp/gps0 & gpsd -N -n /tmp/gps0
            """
    )

    @Argument(help: "The log to play; a made-up track when left out.")
    var file: String?

    @Option(help: "Also make a symbolic link to the device at this path (removed at the end).")
    var link: String?

    @Option(help: "How many times faster than recorded (1 is real time); logs only.")
    var speed: Double = 1

    @Flag(help: "Wait out pauses of more than 5 s in the log's times (up to a minute) instead of shortening them to one cycle; logs only.")
    var keepGaps = false

    func validate() throws {
        if !(speed > 0) { throw ValidationError("--speed must be above 0") }
    }

    func run() throws {
        let receiver = try VirtualReceiver.opened(link: link)
        let output = BufferedOutput()
        output.write(receiver.devicePath + "\n")
        output.flush()
        if let failure = output.failure {
            receiver.close()
            throw outputFailed(failure)
        }
        let done = DispatchSemaphore(value: 0)
        let failure = Protected<GPSError?>(nil)
        if let file {
            receiver.play(.log(path: file, pace: .recorded(speed: speed, keepingGaps: keepGaps)), loop: true) { error in
                failure.withLock { $0 = error }
                done.signal()
            }
        } else {
            let track = SyntheticTrack()
            receiver.play(.everySecond { Array(track.epoch($0).utf8) })
        }
        let signals = stopOnSignals { done.signal() }
        done.wait()
        signals.forEach { $0.cancel() }
        receiver.close()
        if let error = failure.withLock({ $0 }) {
            printError(error.message)
            throw ExitCode.noInput
        }
    }
}
