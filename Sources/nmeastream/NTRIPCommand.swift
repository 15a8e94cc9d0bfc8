import ArgumentParser
import Dispatch
import NMEAStream
import Platform

/// `nmeastream ntrip`: a caster's sourcetable, or a check of one of its mountpoints, before a
/// receiver is pointed at it.
struct NTRIPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ntrip",
        abstract: "List an NTRIP caster's mountpoints, or check that one sends RTCM 3 corrections.",
        discussion: """
            With a URL that ends in a slash, prints the caster's sourcetable: each mountpoint \
            with where it is, its format, constellations, country and position, and whether \
            it needs the receiver's position (a network's virtual reference station). With a \
            mountpoint, connects as a receiver would and prints, each second, the RTCM 3 \
            frames received by message type, for --seconds (or until Ctrl-C); frames whose \
            checksum fails are counted and would not be passed to a receiver. Nothing is \
            written to any device.

            Exit codes: 0 the table printed, or frames received; 64 usage error; 69 the \
            caster refused (the password, an unknown mountpoint) or cannot be reached; 75 no \
            frame within --seconds.

            Examples:
              nmeastream ntrip ntrip://rtk2go.com/
              nmeastream ntrip ntrip://me:secret@caster.example.org/MOUNT --seconds 30
            """
    )

    @Argument(help: "The caster: ntrip://[USER[:PASSWORD]@]HOST[:PORT]/ for its sourcetable, or ntrip://.../MOUNT for a mountpoint.")
    var url: String

    @OptionGroup var passwordSource: PasswordSource

    @Option(name: .customLong("ntrip-version"), parsing: .unconditional, help: "The NTRIP revision to speak: 1 or 2.")
    var version: Int = 2

    @Option(help: "How long to watch a mountpoint, in seconds (its sourcetable is read once).")
    var seconds = Seconds(10)

    func validate() throws {
        _ = try endpoint()
        guard NTRIPVersion(rawValue: version) != nil else { throw ValidationError("--ntrip-version must be 1 or 2") }
        guard seconds.value > 0 else { throw ValidationError("--seconds must be above 0") }
    }

    /// The URL read, with the password from its other sources.
    func endpoint() throws -> NTRIPEndpoint {
        var endpoint: NTRIPEndpoint
        do throws(NTRIPEndpointError) {
            endpoint = try NTRIPEndpoint(parsing: url)
        } catch {
            throw ValidationError("not a caster's URL: \(error)")
        }
        if let password = try passwordSource.password() { endpoint.password = password }
        return endpoint
    }

    func run() throws {
        let endpoint = try endpoint()
        let done = DispatchSemaphore(value: 0)
        let outcome = Protected(Outcome())
        let client = NTRIPClient(endpoint: endpoint, version: NTRIPVersion(rawValue: version) ?? .v2) { event in
            switch event {
            case .streaming(let named):
                printError("streaming from \(named)")
            case .frame:
                outcome.withLock { $0.frames += 1 }
            case .interrupted(let interruption):
                // Said once per reason, as serve says a network receiver's.
                let isNew = outcome.withLock { state in
                    defer { state.lastInterruption = interruption.reason }
                    return state.lastInterruption != interruption.reason
                }
                if isNew { printError(interruption.description) }
            case .refused(let refusal):
                outcome.withLock { $0.refusal = refusal }
                done.signal()
            case .sourcetable(let table):
                outcome.withLock { $0.table = table }
                done.signal()
            }
        }
        let signals = stopOnSignals { done.signal() }
        client.start()
        if endpoint.mountpoint.isEmpty {
            _ = done.wait(timeout: .now() + .milliseconds(Int(seconds.value * 1000)))
        } else {
            watch(client, outcome: outcome, done: done)
        }
        client.stop()
        signals.forEach { $0.cancel() }
        let result = outcome.withLock { $0 }
        if let refusal = result.refusal {
            printError("\(endpoint): \(refusal)")
            throw ExitCode.unavailable
        }
        if endpoint.mountpoint.isEmpty {
            guard let table = result.table else {
                printError("\(endpoint): no sourcetable within \(seconds) s")
                throw ExitCode.unavailable
            }
            print(Self.render(table), terminator: "")
            return
        }
        guard result.frames > 0 else {
            printError("\(endpoint): no RTCM 3 frame in \(seconds) s")
            throw ExitCode.noFixInTime
        }
    }

    /// Prints the frames by type each second until `seconds` have passed, a refusal, or a signal.
    private func watch(_ client: NTRIPClient, outcome: Protected<Outcome>, done: DispatchSemaphore) {
        let end = DispatchTime.now() + .milliseconds(Int(seconds.value * 1000))
        while DispatchTime.now() < end {
            let next = min(end, DispatchTime.now() + .seconds(1))
            if done.wait(timeout: next) == .success { return }
            let counts = client.counts
            guard counts.frameCount > 0 || counts.badChecksums > 0 else { continue }
            let types = counts.frames.keys.sorted().map { "\($0): \(counts.frames[$0] ?? 0)" }.joined(separator: ", ")
            print("\(counted(counts.frameCount, "frame")) (\(types))" + (counts.badChecksums > 0 ? "; \(counts.badChecksums) failed their checksum" : ""))
        }
    }

    private struct Outcome: Sendable {
        var frames = 0
        var refusal: NTRIPRefusal?
        var table: Sourcetable?
        var lastInterruption: String?
    }

    /// One line a stream: mountpoint, where, format, constellations, country, position, and
    /// `VRS` when it needs the receiver's position.
    static func render(_ table: Sourcetable) -> String {
        guard !table.streams.isEmpty else { return "the caster lists no mountpoint\n" }
        let rows = table.streams.map { stream -> [String] in
            let position = stream.latitude.flatMap { lat in stream.longitude.map { lon in "\(lat) \(lon)" } } ?? ""
            return [stream.mountpoint, stream.identifier, stream.format, stream.navigationSystems, stream.country, position,
                    stream.needsPosition ? "VRS" : ""]
        }
        let header = ["MOUNTPOINT", "WHERE", "FORMAT", "SYSTEMS", "COUNTRY", "POSITION", ""]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            zip(row, widths).map { $0.0.padding(toLength: $0.1) }.joined(separator: "  ").trimmingTrailingSpaces + "\n"
        }.joined()
    }
}

private extension String {
    func padding(toLength length: Int) -> String { self + String(repeating: " ", count: max(0, length - count)) }

    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
