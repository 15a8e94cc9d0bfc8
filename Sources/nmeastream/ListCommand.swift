import ArgumentParser
import NMEAStream

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the serial ports, receivers first, and say what each one is.",
        discussion: """
            Looks through udev only: nothing is opened or written. A port is `gps` when it is a \
            known receiver or names itself one, `candidate` when it sits behind a USB-serial \
            bridge that receivers often use, and `other` otherwise.

            Exit codes: 0 success (also when no port is found); 69 udev cannot be asked.

            Examples:
              nmeastream list
              nmeastream list --format json
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output format: text (a line per port) or json (an object per line).")
    var format: Format = .text

    func run() throws {
        let ports: [SerialPortInfo]
        do {
            ports = try PortDiscovery.ports()
        } catch {
            printError(error.description)
            throw ExitCode(69)
        }
        let output = BufferedOutput()
        switch format {
        case .text:
            if ports.isEmpty { output.write("no serial ports\n") }
            for port in ports { output.write(PortText.line(port) + "\n") }
        case .json:
            var writer = JSONWriter()
            for port in ports {
                writer.reset()
                PortJSON.write(port, to: &writer)
                writer.withBytes { output.writeLine($0) }
            }
        }
        output.flush()
    }
}

/// A port as one line of text: kind, path, IDs, names, why.
enum PortText {
    static func line(_ port: SerialPortInfo) -> String {
        var parts = [port.kind.description.padding(toLength: 9, withPad: " ", startingAt: 0), port.path]
        if let vendorID = port.vendorID, let productID = port.productID {
            parts.append(PortJSON.hex(vendorID) + ":" + PortJSON.hex(productID))
        }
        let names = [port.vendor, port.product].compactMap { $0 }.joined(separator: " ")
        if !names.isEmpty { parts.append(names) }
        if let driver = port.driver { parts.append("[\(driver)]") }
        parts.append("- " + port.reason)
        if let stable = port.stablePath { parts.append("(\(stable))") }
        return parts.joined(separator: "  ")
    }
}

/// A port as a JSON object.
enum PortJSON {
    static func write(_ port: SerialPortInfo, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.string("path", port.path)
        if let stable = port.stablePath { writer.string("stablePath", stable) }
        if let vendorID = port.vendorID { writer.string("vendorID", hex(vendorID)) }
        if let productID = port.productID { writer.string("productID", hex(productID)) }
        if let vendor = port.vendor { writer.string("vendor", vendor) }
        if let product = port.product { writer.string("product", product) }
        if let serial = port.serialNumber { writer.string("serial", serial) }
        if let driver = port.driver { writer.string("driver", driver) }
        if let interface = port.interfaceNumber { writer.integer("interface", interface) }
        writer.string("kind", port.kind.description)
        if let entry = port.catalogueEntry {
            writer.string("name", entry.name)
            writer.integer("defaultSpeed", entry.defaultSpeed)
        }
        writer.string("reason", port.reason)
        writer.endObject()
    }

    /// Four lowercase hexadecimal digits.
    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
