import ArgumentParser
import Platform
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

            What programs write to the receiver is taken as a receiver takes it, so a writer \
            never finds the line full; --record-input keeps it in a file (to check the RTCM \
            corrections that `serve --corrections` writes, say).

            --control reads faults to inject into the made-up track from standard input, one \
            command a line, each from the next epoch on: 3d, 2d, no-fix (the fix); shift \
            METRES (report the position that far north, as a spoofer would; 0 ends it); \
            time-shift SECONDS (report the time that far off); signals normal, uniform (every \
            satellite at 45 dB-Hz, a spoofer's sign) or jammed (every satellite down to 12 \
            dB-Hz); normal (all of them back). To try failover between receivers and the \
            integrity checks (see Documentation/several-receivers.md).

            gpsd started beside it (the third example) opens the receiver when its first \
            client comes, by when the link exists: with -n it would open it at once, and \
            could come before the link.

            Examples:
              nmeastream simulate
              nmeastream simulate --link /tmp/gps0 drive.nmea
              nmeastream simulate --link /tmp/gps0 & gpsd -N /tmp/gps0
              nmeastream simulate --link /tmp/gps0 --record-input written.bin
              nmeastream simulate --control --link /tmp/gps1    # then type: no-fix
            """
    )

    @Argument(help: "The log to play; a made-up track when left out.")
    var file: String?

    @Option(help: "Also make a symbolic link to the device at this path (removed at the end).")
    var link: String?

    @Option(parsing: .unconditional, help: "How many times faster than recorded (1 is real time); logs only.")
    var speed: Double = 1

    @Flag(help: "Wait out pauses of more than 5 s in the log's times (up to a minute) instead of shortening them to one cycle; logs only.")
    var keepGaps = false

    @Option(name: .customLong("record-input"), help: "Append what programs write to the receiver to this file.")
    var recordInput: String?

    @Flag(help: "Read faults to inject into the made-up track from standard input (see above).")
    var control = false

    @Flag(name: .customLong("multi-gnss"),
          help: "Make the made-up receiver a modern one: GPS, GLONASS, Galileo and BeiDou, in NMEA 4.11 (GPS alone, NMEA 2.3, by default).")
    var multiGNSS = false

    func validate() throws {
        if !(speed > 0) { throw ValidationError("--speed must be above 0") }
        if control, file != nil { throw ValidationError("--control changes the made-up track: give no log") }
        if multiGNSS, file != nil { throw ValidationError("--multi-gnss makes the made-up track: give no log") }
    }

    func run() throws {
        let receiver = try VirtualReceiver.opened(link: link)
        var recording: Int32?
        if let recordInput {
            let record: Int32
            do throws(Errno) {
                record = try Syscall.create(recordInput, OpenFlags([.writeOnly, .append, .closeOnExec]).rawValue, mode: 0o644)
            } catch {
                receiver.close()
                printError("--record-input: cannot open \(recordInput): \(error)")
                throw ExitCode.cannotCreate
            }
            let failed = Protected(false)
            receiver.onInput { bytes in
                let written = bytes.withUnsafeBytes { buffer in
                    Result { () throws(Errno) in try Syscall.writeAll(record, buffer) }
                }
                guard case .failure(let error) = written else { return }
                // Said once (the disk is full, or gone); what comes after is dropped.
                let first = failed.withLock { failed in
                    let first = !failed
                    failed = true
                    return first
                }
                if first { printError("--record-input: cannot write \(recordInput): \(error); what is written to the receiver is no longer kept") }
            }
            recording = record
        }
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
            let track = SyntheticTrack(multiConstellation: multiGNSS)
            let condition = Protected(SyntheticTrack.Condition())
            if control { Self.readControl(into: condition) }
            // Each epoch labelled with the second it is sent in, as a receiver keeps true time.
            receiver.play(.eachSecond { second in Array(track.epoch(atSecond: second, condition: condition.withLock { $0 }).utf8) })
        }
        let signals = stopOnSignals { done.signal() }
        done.wait()
        signals.forEach { $0.cancel() }
        receiver.close()
        if let recording { Syscall.close(recording) }
        if let error = failure.withLock({ $0 }) {
            printError(error.message)
            throw ExitCode.noInput
        }
    }

    /// Reads `--control`'s commands from standard input until its end, on a thread of its own:
    /// lines of at most 256 bytes (a longer one is refused, its rest skipped, never held), each
    /// refused line said escaped and short.
    static func readControl(into condition: Protected<SyntheticTrack.Condition>) {
        // A queue of its own: the read blocks it, and nothing else runs there.
        DispatchQueue(label: "nmeastream.simulate.control").async {
            var splitter = BoundedLineSplitter(maximumLength: 256)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = (try? buffer.withUnsafeMutableBytes { bytes throws(Errno) in try Syscall.read(Syscall.standardInput, into: bytes) }) ?? 0
                let lines = count > 0 ? splitter.take(buffer[..<count]) : splitter.finish().map { [$0] } ?? []
                for line in lines { take(line, into: condition) }
                if count <= 0 { return }
            }
        }
    }

    /// One line of `--control`'s input: applied from the next epoch, or refused.
    static func take(_ line: BoundedLineSplitter.Line, into condition: Protected<SyntheticTrack.Condition>) {
        let text = String(decoding: line.bytes, as: UTF8.self)
        // Shown escaped and short: the input may hold anything.
        let shown = printable(String(text.prefix(64))) + (line.isCut || text.count > 64 ? "..." : "")
        if line.isCut {
            printError("simulate: refused a line of over \(line.bytes.count) bytes: \(shown)")
            return
        }
        guard !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { return }
        switch SimulatedFault.parse(text) {
        case .success(let fault):
            condition.withLock { $0.apply(fault) }
            printError("simulate: \(shown) from the next epoch")
        case .failure(.outOfRange(let range)):
            printError("simulate: refused \(shown): \(range)")
        case .failure(.notACommand):
            printError("simulate: not a command: \(shown) (\(SimulatedFault.usage))")
        }
    }
}
