import NMEAStream

/// The udev rules that let a user open known receivers without root and keep ModemManager
/// away from them, generated from the catalogue (`udev-rules/60-nmeastream.rules` is this
/// text; `nmeastream udev-rules` prints it).
enum UdevRules {
    /// The file name to install the rules under.
    static let fileName = "60-nmeastream.rules"

    /// The rules for `entries`: for each receiver a `gps%n` link, access for the user at the
    /// seat (`uaccess`) and for the `dialout` group, and ModemManager told to leave it alone;
    /// bridges are listed commented out, for those who want them too.
    static func text(for entries: [ReceiverCatalogue.Entry] = ReceiverCatalogue.entries) -> String {
        var lines = [
            "# nmeastream: udev rules for USB GPS receivers.",
            "# Generated from Hardware/catalogue.json by `nmeastream udev-rules`: do not edit.",
            "#",
            "# Install:",
            "#   sudo cp \(fileName) /etc/udev/rules.d/",
            "#   sudo udevadm control --reload",
            "#   sudo udevadm trigger --subsystem-match=tty",
            "#",
            "# For each known receiver: a /dev/gpsN link, read-write access for the user logged in at",
            "# the seat and for the dialout group, and ModemManager told not to probe it (its probing",
            "# writes AT commands and delays the device by seconds).",
            "",
            "SUBSYSTEM!=\"tty\", GOTO=\"nmeastream_end\"",
            "# The USB interface number of the port (ID_USB_INTERFACE_NUM), for composite devices:",
            "# 60-serial.rules imports it too, but after this file.",
            "SUBSYSTEMS==\"usb\", IMPORT{builtin}=\"usb_id\"",
            "",
        ]
        for entry in entries where entry.kind == .gps {
            lines.append("# \(entry.name) (\(entry.chipset), \(entry.driver))")
            lines.append(rule(entry))
        }
        lines += [
            "",
            "# USB-serial bridges that receivers often sit behind, and much else does too: remove the",
            "# leading # of a line to treat every such device as a receiver.",
        ]
        for entry in entries where entry.kind == .candidate {
            lines.append("# \(entry.name) (\(entry.chipset), \(entry.driver))")
            lines.append("#" + rule(entry))
        }
        lines += ["", "LABEL=\"nmeastream_end\"", ""]
        return lines.joined(separator: "\n")
    }

    private static func rule(_ entry: ReceiverCatalogue.Entry) -> String {
        var parts = [
            "ATTRS{idVendor}==\"\(zeroPadded(entry.vendorID, width: 4, radix: 16))\"",
            "ATTRS{idProduct}==\"\(zeroPadded(entry.productID, width: 4, radix: 16))\"",
        ]
        // A composite device (a modem with a GNSS port): only its NMEA interface, and only that
        // port kept from ModemManager, which still drives the modem.
        if let interface = entry.interfaceNumber {
            // Not ATTRS{bInterfaceNumber}: every ATTRS key of a rule must match on one and the
            // same parent, and the IDs are on the device, the number on the interface.
            parts.append("ENV{ID_USB_INTERFACE_NUM}==\"\(zeroPadded(interface, width: 2, radix: 16))\"")
        }
        parts += [
            "SYMLINK+=\"gps%n\"",
            "TAG+=\"uaccess\"",
            "GROUP=\"dialout\"",
            "MODE=\"0660\"",
            entry.interfaceNumber == nil ? "ENV{ID_MM_DEVICE_IGNORE}=\"1\"" : "ENV{ID_MM_PORT_IGNORE}=\"1\"",
        ]
        return parts.joined(separator: ", ")
    }
}
