import ArgumentParser
import NMEAStream

struct UdevRulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "udev-rules",
        abstract: "Print the udev rules for the receivers nmeastream knows.",
        discussion: """
            Install them so that a normal user can open a receiver and ModemManager leaves it \
            alone:

              nmeastream udev-rules | sudo tee /etc/udev/rules.d/60-nmeastream.rules
              sudo udevadm control --reload
              sudo udevadm trigger --subsystem-match=tty
            """
    )

    func run() throws {
        let output = BufferedOutput()
        output.write(UdevRules.text())
        output.flush()
        if let failure = output.failure { throw outputFailed(failure) }
    }
}
