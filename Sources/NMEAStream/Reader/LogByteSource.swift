import Platform
import Dispatch

/// A recorded log (or standard input) read in chunks, one queue turn per chunk, so that a
/// stop is seen between chunks.
final class LogByteSource: ByteSource, @unchecked Sendable {
    let log: RecordedLog
    let released = DispatchGroup()
    private var descriptor: Int32 = -1
    private var buffer: UnsafeMutableRawBufferPointer?
    private var isStopped = false

    init(path: String) { log = RecordedLog(path: path) }

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        do throws(RecordedLogError) {
            descriptor = try log.openDescriptor()
        } catch {
            return end(.log(error))
        }
        released.enter()
        buffer = .allocate(byteCount: log.chunkSize, alignment: 16)
        step(on: queue, deliver: deliver, end: end)
    }

    private func step(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      end: @escaping @Sendable (GPSError?) -> Void) {
        guard !isStopped, let buffer else { return }
        let failure: RecordedLogError?
        do throws(Errno) {
            let count = try Syscall.read(descriptor, into: buffer)
            if count > 0 {
                deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                return queue.async { self.step(on: queue, deliver: deliver, end: end) }
            }
            failure = nil
        } catch {
            failure = RecordedLogError(location: log.location, errno: error, operation: .read)
        }
        stop()
        end(failure.map(GPSError.log))
    }

    func stop() {
        isStopped = true
        guard let buffer else { return }
        self.buffer = nil
        buffer.deallocate()
        if descriptor != Syscall.standardInput { Syscall.close(descriptor) }
        released.leave()
    }
}
