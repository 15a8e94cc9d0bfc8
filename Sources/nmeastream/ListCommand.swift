import ArgumentParser
import Dispatch
import NMEAStream
import Platform

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the serial ports, receivers first, and say what each one is.",
        discussion: """
            Looks through udev only: nothing is opened or written. A port is `gps` when it is a \
            known receiver or names itself one, `candidate` when it sits behind a USB-serial \
            bridge that receivers often use, and `other` otherwise.

            With --watch it goes on after the list, printing each port that arrives (+) or \
            leaves (-) until Ctrl-C; in JSON, objects with "event": "add" or "remove".

            Exit codes: 0 success (also when no port is found); 69 udev cannot be asked.

            Examples:
              nmeastream list
              nmeastream list --format json
              nmeastream list --watch
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output format: text (a line per port) or json (an object per line).")
    var format: Format = .text

    @Flag(help: "Go on printing ports as they arrive and leave, until Ctrl-C.")
    var watch = false

    func run() throws {
        // Listening starts before the list is read: a port that arrives in between is told.
        let events = watch ? Hotplug.events() : nil
        let ports: [SerialPortInfo]
        do {
            ports = try PortDiscovery.ports()
        } catch {
            printError(error.message)
            throw ExitCode.unavailable
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
        if let failure = output.failure { throw outputFailed(failure) }
        if let events {
            printError("watching for ports plugged in (+) and out (-); Ctrl-C to stop")
            try follow(events)
        }
    }

    /// Prints each hotplug event as it comes, until Ctrl-C or a failure.
    private func follow(_ events: Signal<HotplugEvent, GPSError>) throws {
        let format = self.format
        let failure = Protected<GPSError?>(nil)
        let writeFailure = Protected<Errno?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = events.observe { event in
            switch event {
            case .next(let event):
                let output = BufferedOutput()
                switch (format, event) {
                case (.text, .added(let port)): output.write("+ " + PortText.line(port) + "\n")
                case (.text, .removed(let path)): output.write("- \(path)\n")
                case (.json, _):
                    var writer = JSONWriter()
                    PortJSON.write(event, to: &writer)
                    writer.withBytes { output.writeLine($0) }
                }
                output.flush()
                if let error = output.failure {
                    writeFailure.withLock { $0 = error }
                    done.signal()
                }
            case .failed(let error):
                failure.withLock { $0 = error }
                done.signal()
            case .completed:
                done.signal()
            }
        }
        let interrupt = stopOnSignals { done.signal() }
        done.wait()
        subscription.dispose()
        interrupt.forEach { $0.cancel() }
        if let error = writeFailure.withLock({ $0 }) { throw outputFailed(error) }
        if let error = failure.withLock({ $0 }) {
            printError(error.message)
            throw ExitCode.unavailable
        }
    }
}

/// A port as one line of text: kind, path, IDs, names, why.
enum PortText {
    static func line(_ port: SerialPortInfo) -> String {
        let kind = port.kind.description
        var parts = [kind + String(repeating: " ", count: max(0, 9 - kind.count)), port.path]
        if let vendorID = port.vendorID, let productID = port.productID {
            parts.append(zeroPadded(vendorID, width: 4, radix: 16) + ":" + zeroPadded(productID, width: 4, radix: 16))
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
    /// A hotplug event: the port's object with `"event": "add"`, or `{"event": "remove", "path": …}`.
    static func write(_ event: HotplugEvent, to writer: inout JSONWriter) {
        switch event {
        case .added(let port):
            write(port, to: &writer, event: "add")
        case .removed(let path):
            writer.beginObject()
            writer.string("event", "remove")
            writer.string("path", path)
            writer.endObject()
        }
    }

    static func write(_ port: SerialPortInfo, to writer: inout JSONWriter, event: String? = nil) {
        writer.beginObject()
        if let event { writer.string("event", event) }
        writer.string("path", port.path)
        if let stable = port.stablePath { writer.string("stablePath", stable) }
        if let vendorID = port.vendorID { writer.string("vendorID", zeroPadded(vendorID, width: 4, radix: 16)) }
        if let productID = port.productID { writer.string("productID", zeroPadded(productID, width: 4, radix: 16)) }
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
}
