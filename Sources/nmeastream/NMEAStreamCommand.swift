import ArgumentParser
import NMEA

@main
struct NMEAStreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmeastream",
        abstract: "Decode NMEA 0183 from GPS receivers and recorded logs into fixes.",
        discussion: """
            Exit codes: 0 success; 64 usage error; 65 a replayed input holds no NMEA at all; 66 input \
            file cannot be opened or read; \
            69 no receiver, or a device cannot be used; 74 a device went away or failed while \
            reading; 75 no fix before --timeout. Ctrl-C and SIGTERM stop cleanly (exit 0); a \
            second one exits at once.
            """,
        version: NMEAStreamRelease.version,
        subcommands: [ReadCommand.self, ReplayCommand.self, ServeCommand.self, PublishCommand.self, SubscribeCommand.self, DemoCommand.self, SimulateCommand.self, ListCommand.self,
                      UdevRulesCommand.self, NTRIPCommand.self],
        defaultSubcommand: ReadCommand.self
    )
}
