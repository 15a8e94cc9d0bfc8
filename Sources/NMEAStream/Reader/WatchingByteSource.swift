import Dispatch
import Signals

/// The best receiver plugged in, followed across unplugging: it waits (on udev's events, no
/// polling) until a receiver or a candidate is there, reads it, and when it goes away waits
/// for the next one, under whatever node name it comes back.
final class WatchingByteSource: ByteSource, @unchecked Sendable {
    let released = DispatchGroup()
    private let huntWindow: Duration
    /// Told the port chosen, before it is opened.
    private let chosen: @Sendable (SerialPortInfo) -> Void
    /// Told the node of a device that went away; reading resumes with the next one.
    private let lost: @Sendable (String) -> Void
    /// Told the speed found on each device.
    private let speedFound: @Sendable (Int) -> Void
    private let readLoop: any DeviceReadLoop
    // Confined to the reader's executor.
    private var current: SerialByteSource?
    private var currentPath: String?
    private var hotplug: Disposable?
    private var isStopped = false

    init(readLoop: any DeviceReadLoop, huntWindow: Duration, chosen: @escaping @Sendable (SerialPortInfo) -> Void,
         lost: @escaping @Sendable (String) -> Void, speedFound: @escaping @Sendable (Int) -> Void) {
        self.readLoop = readLoop
        self.huntWindow = huntWindow
        self.chosen = chosen
        self.lost = lost
        self.speedFound = speedFound
    }

    func start(on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
               end: @escaping @Sendable (GPSError?) -> Void) {
        released.enter()
        // Listening first: a receiver that arrives while the ports are being looked at is told.
        // udev's events come on a queue of the monitor's, and are handled on the executor.
        hotplug = Hotplug.events().observe { [weak self] event in
            executor.schedule { [weak self] in self?.take(event, on: executor, deliver: deliver, end: end) }
        }
        let ports: [SerialPortInfo]
        do throws(GPSError) {
            ports = try PortDiscovery.ports()
        } catch {
            stop()
            return end(error)
        }
        if let best = ports.first, best.kind != .other { open(best, on: executor, deliver: deliver, end: end) }
    }

    private func take(_ event: Signals.Event<HotplugEvent, GPSError>, on executor: any ReceiverExecutor,
                      deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, end: @escaping @Sendable (GPSError?) -> Void) {
        guard !isStopped else { return }
        switch event {
        case .next(.added(let port)) where port.kind != .other && current == nil:
            open(port, on: executor, deliver: deliver, end: end)
        case .next(.removed(let path)) where path == currentPath:
            // udev says it is gone: do not wait for a read to fail (some drivers keep a
            // dead node readable for a while).
            current?.stop()
            deviceGone(path, on: executor, deliver: deliver, end: end)
        case .next:
            break
        case .failed(let error):
            stop()
            end(error)
        case .completed:
            break
        }
    }

    private func open(_ port: SerialPortInfo, on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                      end: @escaping @Sendable (GPSError?) -> Void) {
        chosen(port)
        let source = SerialByteSource(path: port.path, speed: .automatic, readLoop: readLoop, huntWindow: huntWindow,
                                      preferredSpeed: port.catalogueEntry?.defaultSpeed, speedFound: speedFound)
        current = source
        currentPath = port.path
        source.start(on: executor, deliver: deliver) { [weak self] error in
            guard let self, !isStopped else { return }
            current = nil
            if case .deviceLost(let path, _)? = error {
                deviceGone(path, on: executor, deliver: deliver, end: end)
                return
            }
            stop()
            end(error)
        }
    }

    /// Unplugged: say so, and wait for the next receiver (or take one already there).
    private func deviceGone(_ path: String, on executor: any ReceiverExecutor, deliver: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                            end: @escaping @Sendable (GPSError?) -> Void) {
        guard currentPath == path else { return }
        current = nil
        currentPath = nil
        lost(path)
        if let next = try? PortDiscovery.ports().first(where: { $0.kind != .other && $0.path != path }) {
            open(next, on: executor, deliver: deliver, end: end)
        }
    }

    func write(_ bytes: [UInt8]) -> DeviceWriteOutcome {
        current?.write(bytes) ?? .dropped(.notOpen)
    }

    func stop() {
        guard !isStopped else { return }
        isStopped = true
        hotplug?.dispose()
        hotplug = nil
        let source = current
        current = nil
        source?.stop()
        // Released once the device (if any) is closed.
        if let source {
            source.released.notify(queue: .global()) { [released] in released.leave() }
        } else {
            released.leave()
        }
    }
}
