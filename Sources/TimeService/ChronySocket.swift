import CPlatform
import NMEAStream

/// Sends ``ChronySample``s to chronyd's `SOCK` sockets: one unbound datagram socket, each
/// sample addressed to its socket's path. chronyd creates those sockets (and removes and
/// recreates them when it restarts): a sample goes only where one exists, and a chronyd that
/// restarted is reached by the next sample, with nothing to reconnect.
final class ChronySocket: @unchecked Sendable {
    private let descriptor: Int32

    /// What became of a sample.
    enum Outcome: Equatable {
        case sent
        /// No socket at the path (chronyd is not running, or has no such refclock).
        case noListener
        /// The socket exists but nobody reads it (chronyd stopped without removing it), or
        /// its queue is full.
        case refused(Errno)
    }

    init() throws(Errno) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Errno.current }
        self.descriptor = descriptor
    }

    deinit { Syscall.close(descriptor) }

    func send(_ sample: ChronySample, to path: String) -> Outcome {
        let bytes = sample.encoded()
        let sent = bytes.withUnsafeBytes { nmeastream_send_datagram(descriptor, path, $0.baseAddress, $0.count) }
        if sent >= 0 { return .sent }
        let error = Errno.current
        return error == .noSuchFile ? .noListener : .refused(error)
    }
}
