import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Produces a source's bytes on the reader's queue: `deliver` for each chunk, then `end`
/// once (`nil` for a normal end). Every method runs on that queue.
protocol ByteSource: AnyObject, Sendable {
    func start(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void)
    /// Stops delivering and starts releasing what the source holds; `released` is left once
    /// that is done (for a device, when its read source's cancel handler has closed it).
    func stop()
    /// Entered when the source opened something, left when it released it.
    var released: DispatchGroup { get }
}

/// A serial device read on a Dispatch read source: the process sleeps until bytes arrive.
///
/// At ``SerialSpeed/automatic`` it first finds the receiver's speed by listening (see
/// ``SpeedHunt``), with a deadline timer per speed tried; once found, the timer is gone.
final class SerialByteSource: ByteSource, @unchecked Sendable {
    let path: String
    let speed: SerialSpeed
    /// How long ``SerialSpeed/automatic`` gives each speed.
    let huntWindow: Duration
    /// The receiver's usual speed, tried by ``SerialSpeed/automatic`` after the port's own.
    let preferredSpeed: Int?
    /// Told the speed ``SerialSpeed/automatic`` found, before its first bytes are delivered.
    let speedFound: @Sendable (Int) -> Void
    let released = DispatchGroup()
    // Confined to the reader's queue.
    private var readSource: DispatchSourceRead?
    private var huntTimer: DispatchSourceTimer?
    private var hunt: SpeedHunt?
    private var isStopped = false

    init(path: String, speed: SerialSpeed, huntWindow: Duration = SpeedHunt.window, preferredSpeed: Int? = nil,
         speedFound: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.path = path
        self.speed = speed
        self.huntWindow = huntWindow
        self.preferredSpeed = preferredSpeed
        self.speedFound = speedFound
    }

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        let port: SerialPort
        do throws(GPSError) {
            switch speed {
            case .bitsPerSecond(let bitsPerSecond): port = try SerialPort(path: path, speed: bitsPerSecond)
            case .automatic: port = try SerialPort(path: path, speed: nil)
            }
        } catch {
            return end(error)
        }
        let descriptor = port.descriptor
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        let path = self.path
        released.enter()
        source.setEventHandler { [weak self] in
            while let self, !self.isStopped {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count > 0 {
                    let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                    if hunt != nil {
                        huntTake(chunk, port: port, deliver: deliver)
                    } else {
                        deliver(chunk)
                    }
                    if count < buffer.count { return }
                    continue
                }
                let code = errno
                if count < 0, code == EINTR { continue }
                if count < 0, code == EAGAIN || code == EWOULDBLOCK { return }
                // End of file, EIO, ENXIO, ENODEV: the device went away (unplugged, or the
                // other end of a pseudo-terminal closed).
                let lost = count == 0 || code == EIO || code == ENXIO || code == ENODEV
                stop()
                return end(lost ? .deviceLost(path: path, errno: count == 0 ? nil : code) : .readError(path: path, errno: code))
            }
        }
        // The one place the device is closed: after the source can no longer read it.
        source.setCancelHandler { [released] in
            port.close()
            buffer.deallocate()
            released.leave()
        }
        readSource = source
        if speed == .automatic {
            hunt = SpeedHunt(current: port.currentSpeed, preferred: preferredSpeed)
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.huntTimedOut(port: port, end: end) }
            huntTimer = timer
            huntTry(port: port, end: end)
            timer.resume()
        }
        source.resume()
    }

    /// Sets the port to the speed on trial and gives it its window; fails when none is left.
    private func huntTry(port: SerialPort, end: @escaping @Sendable (GPSError?) -> Void) {
        guard let hunt else { return }
        guard let speed = hunt.speed else {
            let tried = hunt.candidates
            stop()
            return end(.noNMEAFound(path: path, speedsTried: tried))
        }
        do throws(GPSError) {
            try port.configure(speed: speed)
        } catch {
            stop()
            return end(error)
        }
        let nanoseconds = huntWindow.components.seconds * 1_000_000_000 + huntWindow.components.attoseconds / 1_000_000_000
        huntTimer?.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)))
    }

    private func huntTimedOut(port: SerialPort, end: @escaping @Sendable (GPSError?) -> Void) {
        guard !isStopped, hunt != nil else { return }
        hunt?.next()
        huntTry(port: port, end: end)
    }

    private func huntTake(_ chunk: UnsafeRawBufferPointer, port: SerialPort,
                          deliver: @Sendable (UnsafeRawBufferPointer) -> Void) {
        guard var current = hunt else { return }
        hunt = nil
        let proven = current.take(chunk)
        guard proven, let speed = current.speed else {
            hunt = current
            return
        }
        huntTimer?.cancel()
        huntTimer = nil
        speedFound(speed)
        current.kept.withUnsafeBytes { deliver($0) }
    }

    func stop() {
        isStopped = true
        huntTimer?.cancel()
        huntTimer = nil
        hunt = nil
        readSource?.cancel()
        readSource = nil
    }
}

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
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count < 0, errno == EINTR { return queue.async { self.step(on: queue, deliver: deliver, end: end) } }
        if count > 0 {
            deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            return queue.async { self.step(on: queue, deliver: deliver, end: end) }
        }
        let failure = count < 0 ? RecordedLogError(location: log.location, errno: errno, operation: .read) : nil
        stop()
        end(failure.map(GPSError.log))
    }

    func stop() {
        isStopped = true
        guard let buffer else { return }
        self.buffer = nil
        buffer.deallocate()
        if descriptor != STDIN_FILENO { close(descriptor) }
        released.leave()
    }
}

/// Bytes in memory, delivered in one chunk.
final class MemoryByteSource: ByteSource, @unchecked Sendable {
    let bytes: [UInt8]
    let released = DispatchGroup()
    private var isStopped = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        bytes.withUnsafeBytes { deliver($0) }
        guard !isStopped else { return }
        isStopped = true
        end(nil)
    }

    func stop() { isStopped = true }
}

/// A source that cannot start, and says why at once.
final class FailedByteSource: ByteSource, @unchecked Sendable {
    let error: GPSError
    let released = DispatchGroup()

    init(_ error: GPSError) { self.error = error }

    func start(on queue: DispatchQueue, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        end(error)
    }

    func stop() {}
}
