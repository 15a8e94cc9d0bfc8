import ArgumentParser
import NMEAStream

/// `--integrity-limit KEY=VALUE`: one of the integrity checks' limits
/// (``IntegrityThresholds/settings``).
struct IntegrityLimit: ExpressibleByArgument, Sendable {
    let setting: IntegrityThresholds.Setting
    let value: Double

    init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let setting = IntegrityThresholds.settings.first(where: { $0.name == parts[0] }),
              let value = Double(parts[1]) else { return nil }
        var probe = IntegrityThresholds()
        guard setting.set(value, in: &probe) else { return nil }
        self.setting = setting
        self.value = value
    }

    /// `argument` as a limit, or a usage error that lists the keys.
    static func parse(_ argument: String) throws -> IntegrityLimit {
        guard let limit = IntegrityLimit(argument: argument) else {
            let keys = IntegrityThresholds.settings.map { "\($0.name)=N" }.joined(separator: ", ")
            throw ValidationError("KEY=VALUE, with a value the key allows; the keys: \(keys)")
        }
        return limit
    }
}

/// The limits of the integrity checks, as the command line sets them.
struct IntegrityLimitOptions: ParsableArguments {
    @Option(name: .customLong("integrity-limit"), parsing: .singleValue,
            help: ArgumentHelp("A limit of the integrity checks, KEY=VALUE (repeatable; see Documentation/several-receivers.md: Integrity checks).",
                               discussion: IntegrityThresholds.settings.map { setting in
                                   "\(setting.name) (\(setting.summary); \(Self.figure(setting.value(in: IntegrityThresholds()))))"
                               }.joined(separator: ", "),
                               valueName: "key=value"),
            // The keys for shell completion; the help lists them once, with their meanings.
            completion: .list(IntegrityThresholds.settings.map { "\($0.name)=" }),
            transform: IntegrityLimit.parse)
    var limits: [IntegrityLimit] = []

    /// Refuses limits that are each allowed but make no sense together (a usage error).
    func validate() throws {
        if let inconsistency = thresholds.inconsistency { throw ValidationError("--integrity-limit: \(inconsistency)") }
    }

    /// The defaults, with the limits given.
    var thresholds: IntegrityThresholds {
        var thresholds = IntegrityThresholds()
        for limit in limits { _ = limit.setting.set(limit.value, in: &thresholds) }
        return thresholds
    }

    private static func figure(_ value: Double) -> String {
        fixedPoint(value, decimals: value == value.rounded() ? 0 : 1)
    }
}

/// How a command says an integrity event: one line on standard error, at most one a second
/// for each kind of check and receiver (``MessageLog/say(_:coalescing:identity:)``); an event
/// heard by two paths (a receiver served alone and through `best:`) is said once.
func sayIntegrity(_ event: IntegrityEvent) {
    MessageLog.standardError.say("integrity: \(event)", coalescing: "integrity \(event.kind) \(event.source ?? "")",
                                 identity: event.hashValue)
}
