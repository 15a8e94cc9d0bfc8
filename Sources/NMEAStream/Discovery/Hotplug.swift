import CUdev
import Dispatch
import Signals
import Platform

/// A serial port arriving or leaving.
public enum HotplugEvent: Sendable, Hashable {
    /// A port appeared (a receiver plugged in), classified as ``PortDiscovery`` does.
    case added(SerialPortInfo)
    /// The port at this node went away (unplugged).
    case removed(path: String)
}

/// Serial ports arriving and leaving, as udev announces them: no polling.
public enum Hotplug {
    /// The `tty` add and remove events from now on. Each subscription listens on its own udev
    /// monitor (a netlink socket read on a Dispatch source, on `queue` or a queue of its own);
    /// disposing it closes the monitor. Ports with no hardware behind them are left out.
    public static func events(on queue: DispatchQueue? = nil) -> Signal<HotplugEvent, GPSError> {
        Signal { observer in
            guard let udev = udev_new() else {
                observer.on(.failed(.discoveryFailed(detail: "udev is not available (udev_new failed)")))
                return nil
            }
            guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
                udev_unref(udev)
                observer.on(.failed(.discoveryFailed(detail: "cannot listen to udev events")))
                return nil
            }
            udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nil)
            guard udev_monitor_enable_receiving(monitor) == 0 else {
                udev_monitor_unref(monitor)
                udev_unref(udev)
                observer.on(.failed(.discoveryFailed(detail: "cannot listen to udev events")))
                return nil
            }
            let handle = MonitorHandle(udev: udev, monitor: monitor)
            let source = DispatchSource.makeReadSource(
                fileDescriptor: udev_monitor_get_fd(monitor),
                queue: queue ?? DispatchQueue(label: "nmeastream.hotplug"))
            source.setEventHandler {
                while let device = udev_monitor_receive_device(handle.monitor) {
                    defer { udev_device_unref(device) }
                    if let event = event(for: device) { observer.on(.next(event)) }
                }
            }
            // The monitor's socket is closed once the source can no longer read it.
            source.setCancelHandler { handle.close() }
            handle.attach(source)
            source.resume()
            return BlockDisposable { handle.cancel() }
        }
    }

    /// The event a udev device announcement is, or `nil` for one that does not concern a port.
    static func event(for device: OpaquePointer) -> HotplugEvent? {
        guard let action = udev_device_get_action(device).map({ String(cString: $0) }),
              let node = udev_device_get_devnode(device).map({ String(cString: $0) }) else { return nil }
        switch action {
        case "add": return PortDiscovery.port(of: device).map(HotplugEvent.added)
        case "remove": return .removed(path: node)
        default: return nil
        }
    }
}

/// A udev monitor and its context, released once.
private final class MonitorHandle: @unchecked Sendable {
    let udev: OpaquePointer
    let monitor: OpaquePointer
    private var isClosed = false
    private let lock = Lock()
    private var source: DispatchSourceRead?

    init(udev: OpaquePointer, monitor: OpaquePointer) {
        self.udev = udev
        self.monitor = monitor
    }

    /// Keeps the read source, to cancel it.
    func attach(_ source: DispatchSourceRead) { lock.withLock { self.source = source } }

    /// Stops listening: the cancel handler then closes the monitor.
    func cancel() { lock.withLock { source }?.cancel() }

    /// Called once, from the read source's cancel handler.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }
}
