import ArgumentParser
import Fleet
import FoundationEssentials
import NMEAStream

/// The broker options `publish` and `subscribe` share: the URL, the password's sources, TLS.
struct BrokerOptions: ParsableArguments {
    @Argument(help: "The broker and topic: mqtt://[user[:password]@]host[:port]/topic, or mqtts:// for TLS.")
    var url: String

    @OptionGroup var passwordSource: PasswordSource

    @Option(name: .customLong("ca-file"), help: "A CA certificate (PEM) to check an mqtts:// broker with, instead of the system's.")
    var caFile: String?

    /// The URL, parsed: a usage error names what is wrong.
    func parsedURL() throws -> MQTTURL {
        do {
            return try MQTTURL(url)
        } catch {
            throw ValidationError("bad broker URL \(url): \(error)")
        }
    }

    /// The password from the environment or a file, when one of them is given.
    func password() throws -> String? { try passwordSource.password() }

    func validate() throws {
        _ = try parsedURL()
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { throw ValidationError("--ca-file: cannot read \(caFile)") }
    }
}

/// Checks a name that goes to the broker: a publisher's vehicle name (a topic level) or a
/// client ID. In a topic level, `+`, `#` and `/` would make the topic a filter or another topic (the broker
/// then drops every message, or the vehicle shows as another), a control character is not
/// allowed in MQTT's strings, and a subscriber refuses a name past 256 bytes.
func validateBrokerName(_ name: String, option: String, isTopicLevel: Bool) throws {
    guard !name.isEmpty else { throw ValidationError("\(option) cannot be empty") }
    guard name.utf8.count <= FleetSubscriber.maximumNameLength else {
        throw ValidationError("\(option) is longer than \(FleetSubscriber.maximumNameLength) bytes")
    }
    if let bad = name.unicodeScalars.first(where: { (isTopicLevel && "+#/".unicodeScalars.contains($0)) || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
        throw ValidationError("\(option) cannot hold \(printable(String(bad)).debugDescription): \(isTopicLevel ? "MQTT reads + and # in a topic as wildcards and / as a level, and allows" : "MQTT allows") no control characters")
    }
}

/// The machine's host name: a publisher's name by default.
func hostName() -> String {
    ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "vehicle"
}

/// Where a password comes from besides its URL, which shows in `ps` and in the shell's history:
/// an environment variable or a file (`publish`, `subscribe` and `ntrip` share them).
struct PasswordSource: ParsableArguments {
    @Option(name: .customLong("password-env"), help: "The name of an environment variable that holds the password.")
    var passwordVariable: String?

    @Option(name: .customLong("password-file"), help: "A file whose first line is the password.")
    var passwordFile: String?

    /// The password from the environment or a file, when one of them is given.
    func password() throws -> String? {
        try Self.password(variable: passwordVariable, file: passwordFile, options: ("--password-env", "--password-file"))
    }

    /// The password in the environment variable or the file named (the variable first), or
    /// `nil` when neither is; the error names the option (`options`) that failed.
    static func password(variable: String?, file: String?, options: (variable: String, file: String)) throws -> String? {
        if let variable {
            guard let value = ProcessInfo.processInfo.environment[variable] else {
                throw ValidationError("\(options.variable): \(variable) is not set")
            }
            return value
        }
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("\(options.file): cannot read \(file)")
            }
            return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        return nil
    }

    func validate() throws {
        if passwordVariable != nil, passwordFile != nil { throw ValidationError("give --password-env or --password-file, not both") }
    }
}
