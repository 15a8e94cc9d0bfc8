import Dispatch

/// Bytes in memory, delivered in one chunk.
final class MemoryByteSource: ByteSource, @unchecked Sendable {
    let bytes: [UInt8]
    let released = DispatchGroup()
    private var isStopped = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        bytes.withUnsafeBytes { deliver($0) }
        guard !isStopped else { return }
        isStopped = true
        end(nil)
    }

    func stop() { isStopped = true }
}
