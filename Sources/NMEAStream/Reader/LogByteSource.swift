import Dispatch

/// A recorded log (or standard input) read in chunks, one turn of the reader's executor per chunk, so that a
/// stop is seen between chunks.
final class LogByteSource: ByteSource, @unchecked Sendable {
    let log: RecordedLog
    let released = DispatchGroup()
    private var file: LogFile?
    /// Confined to the reader's executor: paused (``pause()``), and the step that waits for
    /// ``resume()``.
    private var isPaused = false
    private var parked: (@Sendable () -> Void)?

    init(path: String) { log = RecordedLog(path: path) }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        do throws(RecordedLogError) {
            file = try LogFile(log)
        } catch {
            return end(.log(error))
        }
        released.enter()
        step(on: executor, deliver: deliver, end: end)
    }

    private func step(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      end: @escaping @Sendable (GPSError?) -> Void) {
        guard file?.isOpen == true else { return }
        guard !isPaused else {
            parked = { self.step(on: executor, deliver: deliver, end: end) }
            return
        }
        let failure: RecordedLogError?
        do throws(RecordedLogError) {
            let chunk = try file!.read()
            if !chunk.isEmpty {
                deliver(chunk)
                executor.schedule { self.step(on: executor, deliver: deliver, end: end) }
                return
            }
            failure = nil
        } catch {
            failure = error
        }
        stop()
        end(failure.map(GPSError.log))
    }

    func stop() {
        parked = nil
        if file?.close() == true { released.leave() }
    }

    func pause() { isPaused = true }

    func resume() {
        isPaused = false
        if let step = parked {
            parked = nil
            step()
        }
    }
}
