import Dispatch

/// A source that cannot start, and says why at once.
final class FailedByteSource: ByteSource, Sendable {
    let error: GPSError
    let released = DispatchGroup()

    init(_ error: GPSError) { self.error = error }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        end(error)
    }

    func stop() {}
}
