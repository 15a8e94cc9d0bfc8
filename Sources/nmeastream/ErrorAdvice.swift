import NMEAStream

extension GPSError {
    /// What a user of this command can do about it; `nil` when there is nothing to add.
    var advice: String? {
        switch self {
        case .noSuchDevice:
            "check that the receiver is plugged in (ls /dev/serial/by-id)"
        case .permissionDenied(_, let group?):
            "join it (sudo usermod -aG \(group) $USER, then log in again), or install the rules in udev-rules/"
        case .permissionDenied(_, nil):
            "join the group that owns the device, or install the rules in udev-rules/"
        case .busy:
            "stop it or read from it instead"
        case .notATerminal:
            "give a tty such as /dev/ttyACM0, or replay a file"
        case .unsupportedSpeed:
            "use one of those, or auto"
        case .noNMEAFound:
            "check that the receiver sends NMEA, not only a binary protocol"
        case .deviceLost:
            "plug it back in and start again"
        case .silent:
            "check the receiver's power and cable, or the network path to it"
        case .discoveryFailed:
            "name the device instead (nmeastream read /dev/ttyACM0)"
        case .readError, .openFailed, .noReceiverFound, .log:
            nil
        }
    }

    /// The line the command prints: what happened, and what to do.
    var message: String {
        guard let advice else { return description }
        return description + "; " + advice
    }
}
