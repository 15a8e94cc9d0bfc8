import CUdev

/// Finds the serial ports of this machine through udev, and tells receivers from the rest.
///
/// Only looks: nothing is opened or written.
public enum PortDiscovery {
    /// Every serial port with hardware behind it, best first: receivers, then candidates, then
    /// the others; within a kind, ports with a stable link first, then by path.
    public static func ports() throws(GPSError) -> [SerialPortInfo] {
        guard let udev = udev_new() else { throw .discoveryFailed(detail: "udev is not available (udev_new failed)") }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else {
            throw .discoveryFailed(detail: "udev cannot enumerate devices")
        }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "tty")
        udev_enumerate_scan_devices(enumerate)
        var ports: [SerialPortInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspath = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, syspath) else { continue }
            defer { udev_device_unref(device) }
            if let port = port(of: device) { ports.append(port) }
        }
        return sorted(ports)
    }

    /// The port to read when none is named: the best receiver, or else the best candidate.
    /// - Throws: ``GPSError/noReceiverFound(detail:)`` listing the ports seen and why none
    ///   qualified.
    public static func bestReceiver() throws(GPSError) -> SerialPortInfo {
        try bestReceiver(among: ports())
    }

    /// ``bestReceiver()`` among `ports`, which must be sorted best first.
    public static func bestReceiver(among ports: [SerialPortInfo]) throws(GPSError) -> SerialPortInfo {
        if let best = ports.first, best.kind != .other { return best }
        if ports.isEmpty {
            throw .noReceiverFound(detail: "no serial port at all; plug the receiver in (dmesg tells whether the kernel saw it)")
        }
        let seen = ports.map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")
        throw .noReceiverFound(detail: "none of the serial ports is a receiver or a USB-serial bridge: \(seen); name the device to read it anyway")
    }

    /// `ports` best first (see ``ports()``).
    public static func sorted(_ ports: [SerialPortInfo]) -> [SerialPortInfo] {
        ports.sorted { a, b in
            if a.kind != b.kind { return a.kind < b.kind }
            if (a.stablePath != nil) != (b.stablePath != nil) { return a.stablePath != nil }
            return a.path < b.path
        }
    }

    /// The port a tty device is, or `nil` for one with no hardware behind it (virtual
    /// consoles, pseudo-terminals, the placeholders of absent legacy serial ports).
    static func port(of device: OpaquePointer) -> SerialPortInfo? {
        guard let node = string(udev_device_get_devnode(device)) else { return nil }
        // No parent device: a virtual terminal or a pseudo-terminal.
        guard udev_device_get_parent(device) != nil else { return nil }
        let usbDevice = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device")
        let usbInterface = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_interface")
        let ancestors = ancestry(of: device)
        // Under the platform device serial8250, with no USB: the kernel's placeholder for a
        // legacy port that may not exist.
        if usbDevice == nil, ancestors.contains(where: { $0.name == "serial8250" }) { return nil }
        // The driver that serves the port: its USB interface's, or the nearest ancestor's
        // (past the serial core's own `port` and `ctrl` devices).
        let interfaceDriver = usbInterface.flatMap { string(udev_device_get_driver($0)) ?? property($0, "DRIVER") }
        let driver = interfaceDriver ?? ancestors.lazy.compactMap(\.driver).first { $0 != "port" && $0 != "ctrl" }
        return SerialPortInfo(
            path: node,
            stablePath: stableLink(device),
            vendorID: usbDevice.flatMap { hex(attribute($0, "idVendor")) },
            productID: usbDevice.flatMap { hex(attribute($0, "idProduct")) },
            vendor: usbDevice.flatMap { attribute($0, "manufacturer") },
            product: usbDevice.flatMap { attribute($0, "product") },
            serialNumber: usbDevice.flatMap { attribute($0, "serial") },
            driver: driver,
            interfaceNumber: usbInterface.flatMap { attribute($0, "bInterfaceNumber").flatMap { Int($0, radix: 16) } },
            interfaceName: usbInterface.flatMap { attribute($0, "interface") })
    }

    /// The names and drivers of a device's ancestors, nearest first.
    private static func ancestry(of device: OpaquePointer) -> [(name: String?, driver: String?)] {
        var result: [(name: String?, driver: String?)] = []
        var current = udev_device_get_parent(device)
        while let ancestor = current {
            result.append((string(udev_device_get_sysname(ancestor)),
                           string(udev_device_get_driver(ancestor)) ?? property(ancestor, "DRIVER")))
            current = udev_device_get_parent(ancestor)
        }
        return result
    }

    private static func stableLink(_ device: OpaquePointer) -> String? {
        var links: [String] = []
        var entry = udev_device_get_devlinks_list_entry(device)
        while let current = entry {
            if let link = string(udev_list_entry_get_name(current)) { links.append(link) }
            entry = udev_list_entry_get_next(current)
        }
        // Without udev's database (a container, a mocked device) the links may only be in the
        // DEVLINKS property.
        if links.isEmpty, let property = property(device, "DEVLINKS") {
            links = property.split(separator: " ").map(String.init)
        }
        return links.filter { $0.hasPrefix("/dev/serial/by-id/") }.sorted().first
    }

    private static func attribute(_ device: OpaquePointer, _ name: String) -> String? {
        string(udev_device_get_sysattr_value(device, name))?.trimmingWhitespace
    }

    private static func property(_ device: OpaquePointer, _ name: String) -> String? {
        string(udev_device_get_property_value(device, name))
    }

    private static func hex(_ text: String?) -> UInt16? { text.flatMap { UInt16($0, radix: 16) } }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

extension String {
    /// Without leading and trailing spaces and line ends (sysfs values end with a newline).
    var trimmingWhitespace: String? {
        let trimmed = drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }
}
