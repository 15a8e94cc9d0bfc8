import Dispatch
import Platform

/// A recorded log replayed at the pace of its own timestamps (see ``LogPace``): each line, or
/// UBX frame, goes out when its time comes, with one timed wait on the reader's executor between
/// epochs.
final class PacedLogByteSource: ByteSource, @unchecked Sendable {
    let log: RecordedLog
    let released = DispatchGroup()
    // Confined to the reader's executor.
    private var descriptor: Int32 = -1
    private var isOpen = false
    private var isStopped = false
    private var atEnd = false
    private var pending: [UInt8] = []
    private var offset = 0
    /// When each unit is due; confined to the reader's executor too.
    private var clock: LogClock
    /// Paused, and the step that waits for the resume; confined to the reader's executor too.
    private var pausing = SourcePause()

    /// Bytes already in memory, when the log is not read from a file.
    private let preloaded: [UInt8]?

    init(path: String, speed: Double, keepingGaps: Bool = false) {
        log = RecordedLog(path: path)
        clock = LogClock(speed: speed, keepingGaps: keepingGaps)
        preloaded = nil
    }

    /// A log in memory, paced the same way.
    init(bytes: [UInt8], speed: Double, keepingGaps: Bool = false) {
        log = RecordedLog(path: "memory")
        clock = LogClock(speed: speed, keepingGaps: keepingGaps)
        preloaded = bytes
    }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        if let preloaded {
            pending = preloaded
            atEnd = true
        } else {
            do throws(RecordedLogError) {
                descriptor = try log.openDescriptor()
            } catch {
                return end(.log(error))
            }
        }
        isOpen = true
        released.enter()
        step(on: executor, deliver: deliver, end: end)
    }

    private func step(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      end: @escaping @Sendable (GPSError?) -> Void) {
        while !isStopped {
            if pausing.parks({ [self] in step(on: executor, deliver: deliver, end: end) }) { return }
            if atEnd, offset == pending.count {
                stop()
                return end(nil)
            }
            // A line, or a UBX frame whole (see LogPacer.nextUnit).
            guard let unit = pending[offset...].withUnsafeBytes({ LogPacer.nextUnit($0, atEnd: atEnd) }) else {
                if let failure = readMore() {
                    stop()
                    return end(.log(failure))
                }
                continue
            }
            let lineEnd = offset + unit.length
            if let time = unit.secondsOfDay {
                let wait = secondsToWait(for: time)
                if wait > 0.000_5 {
                    executor.schedule(after: .nanoseconds(Int64(wait * 1e9))) { [self] in
                        step(on: executor, deliver: deliver, end: end)
                    }
                    return
                }
            }
            pending[offset..<lineEnd].withUnsafeBytes { deliver($0) }
            offset = lineEnd
        }
    }

    /// Reads the next chunk behind what is pending; `nil` on success or at the end.
    private func readMore() -> RecordedLogError? {
        pending.removeSubrange(0..<offset)
        offset = 0
        var chunk = [UInt8](repeating: 0, count: log.chunkSize)
        var failure: Errno?
        let count = chunk.withUnsafeMutableBytes { buffer in
            do throws(Errno) { return try Syscall.read(descriptor, into: buffer) } catch { failure = error; return 0 }
        }
        if let failure { return RecordedLogError(location: log.location, errno: failure, operation: .read) }
        if count == 0 { atEnd = true }
        pending.append(contentsOf: chunk.prefix(count))
        return nil
    }

    /// How long to wait before a line stamped `time` (seconds of day) is due.
    private func secondsToWait(for time: Double) -> Double {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        return clock.due(time, now: now) - now
    }

    func pause() { pausing.pause() }

    func resume() { pausing.resume()?() }

    func stop() {
        isStopped = true
        pausing.cancel()
        guard isOpen else { return }
        isOpen = false
        if descriptor >= 0, descriptor != Syscall.standardInput { Syscall.close(descriptor) }
        released.leave()
    }
}
