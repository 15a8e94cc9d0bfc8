import Platform
import NIOCore
import NMEAStream

/// How many connections the process's descriptors allow. Each connection is a descriptor, and
/// a server that accepts until `accept` fails with `EMFILE` can neither refuse the next client
/// with a word nor open a device that a watcher asks for.
enum DescriptorLimit {
    /// Descriptors kept for what is not a connection: devices, PPS, chrony's sockets, files.
    static let reserve = 64

    /// Raises the soft limit on open files to the hard one (what an unprivileged process may
    /// do; systemd's default soft limit is 1,024), then returns how many connections fit:
    /// `wanted`, or fewer when the limit, less the descriptors open now and ``reserve``, is
    /// smaller (at least 1).
    static func connections(wanted: Int) -> Int {
        guard let soft = Syscall.raiseDescriptorLimit() else { return wanted }
        return max(1, min(wanted, soft - openDescriptors() - reserve))
    }

    /// How many descriptors the process has open now.
    static func openDescriptors() -> Int {
        // Less the listing's own descriptor.
        max(0, (Syscall.directoryEntries("/proc/self/fd")?.count ?? 1) - 1)
    }
}

/// Counts the listener's failed accepts (after ``AcceptBackoffHandler``'s pause is set), and
/// keeps them from the end of the pipeline: a failed accept is not the listener's end.
final class AcceptFailureCounter: ChannelInboundHandler, Sendable {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    private let count: @Sendable () -> Void

    init(_ count: @escaping @Sendable () -> Void) { self.count = count }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is IOError { count() } else { context.fireErrorCaught(error) }
    }
}
