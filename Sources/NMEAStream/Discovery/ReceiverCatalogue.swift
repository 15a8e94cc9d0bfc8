/// The USB receivers and USB-serial bridges nmeastream knows, from `Hardware/catalogue.json`.
public enum ReceiverCatalogue {
    /// One known USB device.
    public struct Entry: Sendable, Hashable {
        /// The USB vendor ID.
        public var vendorID: UInt16
        /// The USB product ID.
        public var productID: UInt16
        /// What it is, such as `u-blox 8`.
        public var name: String
        /// The chip that speaks, such as `u-blox M8` or `Prolific PL2303`.
        public var chipset: String
        /// The speed the receiver usually sends at, in bits per second: tried first by
        /// ``SerialSpeed/automatic`` after the port's own.
        public var defaultSpeed: Int
        /// `gps` for a receiver, `candidate` for a bridge receivers often use.
        public var kind: PortKind
        /// The Linux driver that serves it, such as `cdc_acm`.
        public var driver: String
        /// The one USB interface that carries NMEA, for composite devices such as LTE modems
        /// with a GNSS port; `nil` when any of its serial ports may.
        public var interfaceNumber: Int?
        /// What is worth knowing about it.
        public var notes: String

        /// Creates an entry.
        public init(vendorID: UInt16, productID: UInt16, name: String, chipset: String, defaultSpeed: Int,
                    kind: PortKind, driver: String, interfaceNumber: Int?, notes: String) {
            self.vendorID = vendorID
            self.productID = productID
            self.name = name
            self.chipset = chipset
            self.defaultSpeed = defaultSpeed
            self.kind = kind
            self.driver = driver
            self.interfaceNumber = interfaceNumber
            self.notes = notes
        }
    }

    /// The entry for a USB device's IDs, or `nil` when the catalogue does not know it.
    public static func entry(vendorID: UInt16, productID: UInt16) -> Entry? {
        entries.first { $0.vendorID == vendorID && $0.productID == productID }
    }
}
