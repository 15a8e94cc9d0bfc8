import Dispatch

/// A recorded log (or standard input) read in chunks, one turn of the reader's executor per chunk, so that a
/// stop is seen between chunks.
final class LogByteSource: ByteSource, @unchecked Sendable {
    let log: RecordedLog
    let released = DispatchGroup()
    // Confined to the reader's executor.
    private var file: LogFile?
    private var pausing = SourcePause()

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
        guard !pausing.parks({ self.step(on: executor, deliver: deliver, end: end) }) else { return }
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
        pausing.cancel()
        if file?.close() == true { released.leave() }
    }

    func pause() { pausing.pause() }

    func resume() { pausing.resume()?() }
}
