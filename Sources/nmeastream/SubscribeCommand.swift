import ArgumentParser
import Dispatch
import Fleet
import NMEAStream
import Platform

/// `nmeastream subscribe`: a fleet's fixes from an MQTT broker, printed as the other commands
/// print them.
struct SubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Print a fleet's fixes from an MQTT broker.",
        discussion: """
            Subscribes to TOPIC/+/tpv (or to the URL's topic when it has wildcards) and prints \
            each vehicle's fixes, tagged with its name ("device" in JSON, a prefix in text), \
            each once: repeats of a vehicle's time (QoS 1 may deliver twice) are dropped. With \
            --id, the broker keeps the session while the subscriber is away and delivers what \
            was published meanwhile when it comes back. Messages that are not gpsd reports \
            are counted and skipped.

            Exit codes: 0 stopped by a signal or after --count; 64 usage error; 69 the broker \
            refused the credentials, or libmosquitto is not installed.

            Examples:
              nmeastream subscribe mqtt://broker.local/fleet --format json
              nmeastream subscribe 'mqtt://broker.local/fleet/+/tpv' --id dashboard
            """
    )

    @OptionGroup var broker: BrokerOptions

    @Option(help: "A client ID: the broker then keeps the session (and what was published meanwhile) while away.")
    var id: String?

    @Option(help: "Output format: text (a line per fix, the vehicle first), json (the TPV lines as published), csv (a device column first), gpx (the vehicle in each point's name).")
    var format: SubscribeFormat = .text

    @Option(parsing: .unconditional, help: "Stop after this many fixes.")
    var count: Int?

    enum SubscribeFormat: String, ExpressibleByArgument, CaseIterable { case text, json, csv, gpx }

    func validate() throws {
        if let id { try validateBrokerName(id, option: "--id", isTopicLevel: false) }
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    mutating func run() throws {
        // Written from libmosquitto's thread, one report at a time.
        let output = Protected(BufferedOutput())
        let done = DispatchSemaphore(value: 0)
        let printed = Protected(0)
        let limit = count, format = format
        let url = try broker.parsedURL(), password = try broker.password()
        // libmosquitto missing, or refusing a setting: said, and the broker's exit code.
        func unavailable(_ error: MQTTError) -> ExitCode {
            printError("cannot subscribe at \(url): \(error)")
            return .unavailable
        }
        let deliver: @Sendable (FleetSubscriber.Report) -> Void = { report in
            guard report.reportClass == "TPV" else { return }
            let fix = report.fix ?? Fix()
            let line: String = switch format {
            case .json: report.json + "\n"
            case .text: printable(report.vehicle) + "  " + FixText.line(fix) + "\n"
            case .csv: CSV.cell(report.vehicle) + "," + CSV.row(fix)
            case .gpx: GPX.point(fix, name: report.vehicle) ?? ""
            }
            let total = printed.withLock { count -> Int in
                count += 1
                return count
            }
            if let limit, total > limit { return }
            let failed = output.withLock { output in
                output.write(line)
                output.flush()
                return output.failed
            }
            if failed || total == limit { done.signal() }
        }
        let subscriber: FleetSubscriber
        do throws(MQTTError) {
            subscriber = try FleetSubscriber(url: url, clientID: id, password: password, caFile: broker.caFile,
                                             waiting: { reason in printError("\(reason); waiting for the broker") },
                                             connection: { lost in
                                                 printError(lost.map { "\($0); waiting for it" } ?? "the broker is back; receiving again")
                                             },
                                             deliver: deliver)
        } catch {
            throw unavailable(error)
        }
        switch format {
        case .csv: output.withLock { $0.write("device," + CSV.header) }
        case .gpx: output.withLock { $0.write(GPX.header) }
        default: break
        }
        let signals = stopOnSignals { done.signal() }
        do throws(MQTTError) {
            try subscriber.start()
        } catch {
            throw unavailable(error)
        }
        printError("subscribing to \(subscriber.filters.joined(separator: ", ")) at \(url)")
        DispatchQueue.global().async {
            if subscriber.waitForRefusal(seconds: 30) != nil { done.signal() }
        }
        done.wait()
        subscriber.stop()
        signals.forEach { $0.cancel() }
        let outputFailure = output.withLock { output in
            if format == .gpx { output.write(GPX.footer) }
            output.flush()
            return output.failure
        }
        let counts = subscriber.counts
        if let refusal = counts.refusal, counts.delivered == 0 {
            printError("cannot subscribe at \(url): \(refusal)")
            throw ExitCode.unavailable
        }
        if counts.malformed > 0 || counts.repeats > 0 {
            printError("\(counted(counts.repeats, "repeat")) dropped, \(counted(counts.malformed, "malformed message")) skipped")
        }
        if let outputFailure { throw outputFailed(outputFailure, format: format == .gpx ? .gpx : nil) }
    }
}
