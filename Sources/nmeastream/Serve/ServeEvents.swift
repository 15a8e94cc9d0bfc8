import NMEAServer
import NMEAStream

/// What `serve` says of the server's events.
extension ServeCommand {
    /// A device's event as it happens: failures always, the lifecycle with `--verbose`.
    static func say(_ event: ServerEvent, verbose: Bool) {
        switch event {
        case .deviceFailed(_, let error):
            printError(error.message + "; tried again every second while a client watches")
        case .pulsesUnavailable(let path, let reason):
            printError("\(path): its pulses cannot be read (\(reason)): no PPS reports until it opens again")
        case .deviceRecovered(let path):
            printError("\(path): reporting again")
        case .deviceOpening(let path):
            if verbose { printError("\(path): opening, for its first watcher") }
        case .deviceReleased(let path):
            if verbose { printError("\(path): closed, its last watcher gone") }
        case .networkConnected(let path, let reconnected):
            // Datagrams are received, not connected to.
            let said = path.hasPrefix("udp://") ? "listening on \(path)" : "connected to \(path)"
            MessageLog.standardError.forget("network \(path)")
            if reconnected || verbose { printError(said) }
        case .networkInterrupted(let path, let interruption):
            // A peer that keeps failing the same way (down for a day) is said once, not at
            // every attempt; again when the reason changes or after it was back.
            MessageLog.standardError.say(interruption.description, key: "network \(path)", reason: interruption.reason)
        case .candidateListening(let path, let reason):
            printError("\(path): \(reason): listening for NMEA or UBX (nothing is written to it)")
        case .candidateServed(let path, let reason), .candidateLeftAlone(let path, let reason):
            printError("\(path): \(reason)")
        case .integrity(_, let event):
            // A member's events come through the merged device too (the only way when only
            // best: is watched); said once however many paths bring them.
            sayIntegrity(event)
        case .sourceChanged(let path, let change):
            printError("\(path) now carries \(change.to): \(change.reason)")
        }
    }
}
