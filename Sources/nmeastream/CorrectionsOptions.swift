import Platform
import ArgumentParser
import NMEAStream

/// `--corrections` and its companions, shared by `read`, `serve` and `publish`: RTK
/// corrections from an NTRIP caster, written to the receiver while it is open.
struct CorrectionsOptions: ParsableArguments {
    @Option(name: .customLong("corrections"),
            help: ArgumentHelp("Write RTCM 3 corrections from an NTRIP caster to the receiver while it is open: ntrip://[USER[:PASSWORD]@]HOST[:PORT]/MOUNT.",
                               valueName: "url"))
    var url: String?

    @Option(name: .customLong("corrections-password-env"), help: "The name of an environment variable that holds the caster's password.")
    var passwordVariable: String?

    @Option(name: .customLong("corrections-password-file"), help: "A file whose first line is the caster's password.")
    var passwordFile: String?

    @Option(name: .customLong("corrections-ntrip-version"), parsing: .unconditional, help: "The NTRIP revision to speak to the caster: 1 or 2.")
    var version: Int = 2

    @Option(name: .customLong("gga-interval"),
            help: "Send the receiver's position to the caster (GGA) every this many seconds, as a network (VRS) mountpoint needs; 0 never.")
    var positionInterval = Seconds(10)

    func validate() throws {
        if url == nil, passwordVariable != nil || passwordFile != nil {
            throw ValidationError("--corrections-password-env and --corrections-password-file go with --corrections")
        }
        if passwordVariable != nil, passwordFile != nil {
            throw ValidationError("give --corrections-password-env or --corrections-password-file, not both")
        }
        guard NTRIPVersion(rawValue: version) != nil else { throw ValidationError("--corrections-ntrip-version must be 1 or 2") }
        _ = try corrections()
    }

    /// The corrections asked for, with the password from its other sources; `nil` without
    /// `--corrections`.
    func corrections() throws -> Corrections? {
        guard let url else { return nil }
        var caster: NTRIPEndpoint
        do throws(NTRIPEndpointError) {
            caster = try NTRIPEndpoint(parsing: url)
        } catch {
            throw ValidationError("--corrections: not a caster's URL: \(error)")
        }
        guard !caster.mountpoint.isEmpty else {
            throw ValidationError("--corrections: \(caster) names no mountpoint (nmeastream ntrip \(url) lists them)")
        }
        if let password = try PasswordSource.password(variable: passwordVariable, file: passwordFile,
                                                      options: ("--corrections-password-env", "--corrections-password-file")) {
            caster.password = password
        }
        return Corrections(caster: caster, version: NTRIPVersion(rawValue: version) ?? .v2,
                           positionInterval: positionInterval.value > 0 ? positionInterval.duration : nil)
    }

    /// The feed asked for, which says on standard error what happens (each reason once until
    /// it changes); `nil` without `--corrections`.
    func feed() throws -> CorrectionsFeed? {
        guard let corrections = try corrections() else { return nil }
        let said = Protected<String?>(nil)
        return CorrectionsFeed(corrections: corrections) { event in
            let line = Self.describe(event)
            // A caster that stays down, or keeps answering in something other than NTRIP, is
            // said once, not at every attempt.
            let key = switch event {
            case .interrupted(let interruption): interruption.reason
            case .refused(.notNTRIP): "not NTRIP"
            default: line
            }
            let isNew = said.withLock { last in
                defer { last = key }
                return last != key
            }
            if isNew { printError("corrections: " + line) }
        }
    }

    /// One line for `event`.
    static func describe(_ event: CorrectionsEvent) -> String {
        switch event {
        case .streaming(let caster): "streaming from \(caster)"
        case .interrupted(let interruption): interruption.description
        case .refused(let refusal): "refused: \(refusal)"
        case .writing(let receiver): "written to \(receiver)"
        case .notWritten(let receiver, let refusal): "not written to \(receiver): \(refusal)"
        }
    }

    /// A summary of what was written, for the end of a run; `nil` with nothing to say.
    static func summary(_ status: CorrectionsStatus) -> String? {
        guard status.frameCount > 0 || status.framesDropped > 0 || status.framesCorrupt > 0 else { return nil }
        let types = status.framesWritten.keys.sorted().map { "\($0): \(status.framesWritten[$0] ?? 0)" }.joined(separator: ", ")
        var line = "corrections: \(counted(status.frameCount, "frame")), \(counted(status.bytesWritten, "byte")) written"
        if !types.isEmpty { line += " (\(types))" }
        if status.framesDropped > 0 { line += "; \(status.framesDropped) not written" }
        if status.framesCorrupt > 0 { line += "; \(status.framesCorrupt) failed their checksum" }
        if status.positionsSent > 0 { line += "; \(counted(status.positionsSent, "position")) sent" }
        return line
    }
}
