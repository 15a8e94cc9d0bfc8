import Platform
import NMEAStream

/// Sends ``TimeSample``s to chronyd's `SOCK` sockets: one unbound datagram socket, each
/// sample addressed to its socket's path. chronyd creates those sockets (and removes and
/// recreates them when it restarts): a sample goes only where one exists, and a chronyd that
/// restarted is reached by the next sample, with nothing to reconnect.
final class ChronySocket: Sendable {
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
        descriptor = try Syscall.unixDatagramSocket()
    }

    deinit { Syscall.close(descriptor) }

    func send(_ sample: TimeSample, to path: String) -> Outcome {
        let bytes = sample.encoded()
        let sent = bytes.withUnsafeBytes { bytes in
            Result { () throws(Errno) in try Syscall.sendDatagram(descriptor, bytes, to: path) }
        }
        switch sent {
        case .success: return .sent
        case .failure(let error): return error == .noSuchFile ? .noListener : .refused(error)
        }
    }
}

extension TimeSample {
    /// The magic number chrony checks: "SOCK".
    static let chronyMagic: Int32 = 0x534f_434b

    /// The bytes chronyd reads: a `struct sock_sample` (chrony's `refclock_sock.c`), laid out
    /// by this platform's C compiler, as chronyd's own build does.
    func encoded() -> [UInt8] {
        let (seconds, nanoseconds) = systemTime.posixTime
        return ChronySockSample.encoded(seconds: seconds, nanoseconds: nanoseconds, offset: offset, pulse: pulse,
                                        leap: announcedLeap.rawValue, magic: Self.chronyMagic)
    }
}
