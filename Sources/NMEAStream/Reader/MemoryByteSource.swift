import Dispatch

/// Bytes in memory, delivered in chunks of a log's size, one turn of the reader's executor per
/// chunk, so that a stop or a pause is seen between chunks.
final class MemoryByteSource: ByteSource, @unchecked Sendable {
    let bytes: [UInt8]
    let released = DispatchGroup()
    /// The bytes delivered per turn: as a log's (``RecordedLog/chunkSize``).
    static let chunkSize = 65_536
    // Confined to the reader's executor.
    private var offset = 0
    private var isStopped = false
    private var pausing = SourcePause()

    init(bytes: [UInt8]) { self.bytes = bytes }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        step(on: executor, deliver: deliver, end: end)
    }

    private func step(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      end: @escaping @Sendable (GPSError?) -> Void) {
        guard !isStopped else { return }
        guard !pausing.parks({ self.step(on: executor, deliver: deliver, end: end) }) else { return }
        guard offset < bytes.count else {
            isStopped = true
            return end(nil)
        }
        // The end comes in a turn of its own, after the pause is looked at again.
        let chunkEnd = min(bytes.count, offset + Self.chunkSize)
        bytes[offset..<chunkEnd].withUnsafeBytes { deliver($0) }
        offset = chunkEnd
        guard !isStopped else { return }
        executor.schedule { self.step(on: executor, deliver: deliver, end: end) }
    }

    func stop() {
        isStopped = true
        pausing.cancel()
    }

    func pause() { pausing.pause() }

    func resume() { pausing.resume()?() }
}
