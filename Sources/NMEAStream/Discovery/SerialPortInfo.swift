import Platform

/// A serial port as discovery sees it: its node, the USB device behind it, and what it is.
public struct SerialPortInfo: Sendable, Hashable {
    /// The device node, such as `/dev/ttyACM0`.
    public var path: String
    /// The stable `/dev/serial/by-id/…` link udev made for it; `nil` when there is none.
    public var stablePath: String?
    /// The USB vendor ID; `nil` for a port with no USB device behind it.
    public var vendorID: UInt16?
    /// The USB product ID; `nil` for a port with no USB device behind it.
    public var productID: UInt16?
    /// The USB manufacturer string; `nil` when the device gives none.
    public var vendor: String?
    /// The USB product string; `nil` when the device gives none.
    public var product: String?
    /// The USB serial number; `nil` when the device gives none.
    public var serialNumber: String?
    /// The driver of the port's USB interface (or of the port), such as `cdc_acm` or `cp210x`.
    public var driver: String?
    /// The USB interface number the port belongs to; `nil` when unknown.
    public var interfaceNumber: Int?
    /// The USB interface's own name, such as `GPS`; `nil` when it has none.
    public var interfaceName: String?
    /// What the port is.
    public var kind: PortKind
    /// The catalogue's entry for the device; `nil` when the catalogue does not know it.
    public var catalogueEntry: ReceiverCatalogue.Entry?
    /// Why it was classified as it was, in words (`u-blox 8 (catalogue)`, `names itself a GPS`…).
    public var reason: String

    /// The path to open: the stable link when there is one (it survives a replug and a
    /// renumbering), else the node.
    public var preferredPath: String {
        if let stablePath, Syscall.exists(stablePath) { return stablePath }
        return path
    }

    /// Creates a port description, classifying it with ``classify(vendorID:productID:driver:interfaceNumber:names:)``.
    public init(path: String, stablePath: String? = nil, vendorID: UInt16? = nil, productID: UInt16? = nil,
                vendor: String? = nil, product: String? = nil, serialNumber: String? = nil, driver: String? = nil,
                interfaceNumber: Int? = nil, interfaceName: String? = nil) {
        self.path = path
        self.stablePath = stablePath
        self.vendorID = vendorID
        self.productID = productID
        self.vendor = vendor
        self.product = product
        self.serialNumber = serialNumber
        self.driver = driver
        self.interfaceNumber = interfaceNumber
        self.interfaceName = interfaceName
        let (kind, entry, reason) = Self.classify(vendorID: vendorID, productID: productID, driver: driver,
                                                  interfaceNumber: interfaceNumber,
                                                  names: [vendor, product, interfaceName].compactMap { $0 })
        self.kind = kind
        catalogueEntry = entry
        self.reason = reason
    }

    /// The drivers of USB-serial bridges that GPS receivers often sit behind.
    public static let bridgeDrivers: Set<String> = ["pl2303", "cp210x", "ftdi_sio", "ch341", "cypress_m8"]

    /// Classifies a port:
    /// 1. a receiver in the catalogue (on the right interface, for composite devices): `gps`;
    /// 2. a device or interface that names itself a GPS or GNSS receiver: `gps`, even behind a
    ///    bridge the catalogue lists;
    /// 3. a bridge in the catalogue, or behind a USB-serial bridge driver: `candidate`;
    /// 4. anything else: `other`.
    public static func classify(vendorID: UInt16?, productID: UInt16?, driver: String?, interfaceNumber: Int?,
                                names: [String]) -> (PortKind, ReceiverCatalogue.Entry?, String) {
        let entry = vendorID.flatMap { vendorID in productID.flatMap { ReceiverCatalogue.entry(vendorID: vendorID, productID: $0) } }
        if let entry, let wanted = entry.interfaceNumber, let interfaceNumber, wanted != interfaceNumber {
            return (.other, entry, "\(entry.name): interface \(interfaceNumber) is not its NMEA port (\(wanted))")
        }
        if let entry, entry.kind == .gps {
            return (.gps, entry, "\(entry.name) (catalogue)")
        }
        if let name = names.first(where: namesReceiver) {
            return (.gps, entry, "names itself a receiver (\"\(name)\")")
        }
        if let entry {
            return (entry.kind, entry, "\(entry.name) (catalogue)")
        }
        if let driver, bridgeDrivers.contains(driver) {
            return (.candidate, nil, "USB-serial bridge (\(driver))")
        }
        return (.other, nil, driver.map { "not a known receiver or bridge (\($0))" } ?? "not a known receiver or bridge")
    }

    /// Whether a USB string says GPS or GNSS as a word (`u-blox GNSS receiver`, `GPS/GNSS Receiver`).
    static func namesReceiver(_ name: String) -> Bool {
        let words = name.uppercased().split { !$0.isLetter && !$0.isNumber }
        return words.contains { $0 == "GPS" || $0 == "GNSS" }
    }
}
