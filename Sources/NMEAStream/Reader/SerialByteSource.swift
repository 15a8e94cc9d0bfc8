import Platform
import Dispatch

/// A serial device, read by a ``DeviceReadLoop`` (by default on SwiftNIO's shared event
/// loops: the process sleeps until bytes arrive).
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
    /// What waits for the device's bytes and reads them.
    let readLoop: any DeviceReadLoop
    let released = DispatchGroup()
    // Confined to the reader's executor.
    private var reading: (any DeviceReading)?
    private var port: SerialPort?
    /// What writes corrections to the device (used once its speed is known).
    private var writer: DeviceWriter?
    private var huntTimer: Disposable?
    /// Where the hunt's windows are timed, and what ends one.
    private var huntExecutor: (any ReceiverExecutor)?
    private var huntTimeout: (@Sendable () -> Void)?
    private var hunt: SpeedHunt?
    private var isStopped = false

    init(path: String, speed: SerialSpeed, readLoop: any DeviceReadLoop, huntWindow: Duration = SpeedHunt.window,
         preferredSpeed: Int? = nil, speedFound: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.path = path
        self.readLoop = readLoop
        self.speed = speed
        self.huntWindow = huntWindow
        self.preferredSpeed = preferredSpeed
        self.speedFound = speedFound
    }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
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
        let path = self.path
        if speed == .automatic {
            // The first speed is set, and what came before it dropped, before anything reads
            // the device: a flush while a read loop on another thread (an event loop) has been
            // told of bytes would leave it reading nothing.
            let hunt = SpeedHunt(current: port.currentSpeed, preferred: preferredSpeed)
            do throws(GPSError) {
                guard let first = hunt.speed else { throw .noNMEAFound(path: path, speedsTried: hunt.candidates) }
                try port.configure(speed: first)
            } catch {
                port.close()
                return end(error)
            }
            self.hunt = hunt
        }
        self.port = port
        if port.isWritable { writer = DeviceWriter(descriptor: port.descriptor, executor: executor) }
        released.enter()
        reading = readLoop.startReading(
            port.handOver(), on: executor,
            chunk: { [weak self] chunk in
                guard let self, !isStopped, let port = self.port else { return }
                if hunt != nil {
                    huntTake(chunk, port: port, deliver: deliver)
                } else {
                    deliver(chunk)
                }
            },
            ended: { [weak self] failure in
                guard let self, !isStopped else { return }
                // End of file, EIO, ENXIO, ENODEV: the device went away (unplugged, or the
                // other end of a pseudo-terminal closed).
                let lost = failure.map { [.ioError, .noSuchDeviceOrAddress, .noSuchDevice].contains($0) } ?? true
                stop()
                end(lost ? .deviceLost(path: path, errno: failure) : .readError(path: path, errno: failure ?? .ioError))
            })
        if speed == .automatic {
            huntExecutor = executor
            huntTimeout = { [weak self] in self?.huntTimedOut(end: end) }
            scheduleHuntWindow()
        }
    }

    /// Gives the speed on trial its window.
    private func scheduleHuntWindow() {
        huntTimer?.dispose()
        guard let huntExecutor, let huntTimeout else { return }
        huntTimer = huntExecutor.schedule(after: huntWindow, huntTimeout)
    }

    /// Sets the port to the next speed on trial and gives it its window; fails when none is
    /// left. The input is not flushed: the read loop may be about to read it on another
    /// thread, and what came at the old speed fails its checksums at the new one.
    private func huntTry(port: SerialPort, end: @escaping @Sendable (GPSError?) -> Void) {
        guard let hunt else { return }
        guard let speed = hunt.speed else {
            let tried = hunt.candidates
            stop()
            return end(.noNMEAFound(path: path, speedsTried: tried))
        }
        do throws(GPSError) {
            try port.configure(speed: speed, discardingInput: false)
        } catch {
            stop()
            return end(error)
        }
        scheduleHuntWindow()
    }

    private func huntTimedOut(end: @escaping @Sendable (GPSError?) -> Void) {
        guard !isStopped, hunt != nil, let port else { return }
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
        endHuntTimer()
        speedFound(speed)
        current.kept.withUnsafeBytes { deliver($0) }
    }

    private func endHuntTimer() {
        huntTimer?.dispose()
        huntTimer = nil
        huntTimeout = nil
        huntExecutor = nil
    }

    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        guard let port, !isStopped, hunt == nil else { return .dropped(.notOpen) }
        guard let writer else { return .dropped(.readOnly(path: port.path)) }
        return writer.write(bytes)
    }

    func stop() {
        isStopped = true
        writer?.close()
        writer = nil
        endHuntTimer()
        hunt = nil
        guard let reading, let port else { return }
        self.reading = nil
        self.port = nil
        // The device as it was found; the read loop closes it once nothing can read it.
        port.restore()
        reading.stop { [released] in released.leave() }
    }
}
