import Foundation
import Testing
@testable import NMEAStream
import TestSupport

@Suite("Receiver catalogue and classification", .mayBlock)
struct CatalogueTests {
    private struct FileEntry: Decodable {
        var vendorID: String
        var productID: String
        var name: String
        var chipset: String
        var defaultSpeed: Int
        var kind: String
        var driver: String
        var interfaceNumber: Int?
        var notes: String
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Hardware/catalogue.json")

    @Test("the embedded catalogue is Hardware/catalogue.json, entry for entry (run Hardware/generate-catalogue.py after editing it)")
    func embeddedMatchesFile() throws {
        let entries = try JSONDecoder().decode([FileEntry].self, from: Data(contentsOf: Self.file))
        let fromFile = entries.map { entry in
            ReceiverCatalogue.Entry(
                vendorID: UInt16(entry.vendorID, radix: 16)!, productID: UInt16(entry.productID, radix: 16)!,
                name: entry.name, chipset: entry.chipset, defaultSpeed: entry.defaultSpeed,
                kind: PortKind(rawValue: entry.kind)!, driver: entry.driver, interfaceNumber: entry.interfaceNumber,
                notes: entry.notes)
        }
        #expect(fromFile == ReceiverCatalogue.entries)
        #expect(entries.allSatisfy { $0.vendorID.count == 4 && $0.productID.count == 4 && $0.vendorID == $0.vendorID.lowercased() })
    }

    @Test("every entry is unique, a receiver or a candidate, at a supported speed")
    func wellFormed() {
        let ids = ReceiverCatalogue.entries.map { "\($0.vendorID):\($0.productID)" }
        #expect(Set(ids).count == ids.count)
        #expect(ReceiverCatalogue.entries.allSatisfy { $0.kind != .other })
        #expect(ReceiverCatalogue.entries.allSatisfy { SerialSpeed.supported.contains($0.defaultSpeed) })
        // At least gpsd's receivers and the current receiver families.
        for (vendor, product) in [(0x1546, 0x01a5), (0x1546, 0x01a6), (0x1546, 0x01a7), (0x1546, 0x01a8),
                                  (0x1546, 0x01a9), (0x091e, 0x0003), (0x0e8d, 0x3329), (0x067b, 0x2303),
                                  (0x10c4, 0xea60), (0x1163, 0x0200)] {
            #expect(ReceiverCatalogue.entry(vendorID: UInt16(vendor), productID: UInt16(product)) != nil)
        }
    }

    @Test("classification: catalogue receivers, self-named receivers, bridges, composite devices, the rest")
    func classification() {
        func kind(_ vendor: UInt16?, _ product: UInt16?, driver: String? = nil, interface: Int? = nil, names: [String] = []) -> PortKind {
            SerialPortInfo.classify(vendorID: vendor, productID: product, driver: driver, interfaceNumber: interface, names: names).0
        }
        #expect(kind(0x1546, 0x01a8, driver: "cdc_acm") == .gps)
        #expect(kind(0x067b, 0x2303, driver: "pl2303") == .candidate)
        #expect(kind(0x067b, 0x2303, driver: "pl2303", names: ["GPS/GNSS Receiver"]) == .gps)
        #expect(kind(0x1234, 0x5678, driver: "cdc_acm", names: ["Acme", "u-blox GNSS receiver"]) == .gps)
        #expect(kind(0x1234, 0x5678, driver: "cdc_acm", names: ["GPSlogger3000"]) == .other, "a word, not a prefix")
        #expect(kind(0x1234, 0x5678, driver: "ch341") == .candidate)
        #expect(kind(0x2341, 0x0043, driver: "cdc_acm", names: ["Arduino Uno"]) == .other)
        #expect(kind(0x2c7c, 0x0125, driver: "option", interface: 1) == .gps)
        #expect(kind(0x2c7c, 0x0125, driver: "option", interface: 2) == .other)
        #expect(kind(nil, nil, driver: "serial") == .other)
    }

    @Test("ordering: receivers, then candidates, then the rest; stable links first; then by path")
    func ordering() {
        let ports = [
            SerialPortInfo(path: "/dev/ttyUSB0", vendorID: 0x067b, productID: 0x2303, driver: "pl2303"),
            SerialPortInfo(path: "/dev/ttyACM1", vendorID: 0x2341, productID: 0x0043, driver: "cdc_acm"),
            SerialPortInfo(path: "/dev/ttyACM3", vendorID: 0x1546, productID: 0x01a8, driver: "cdc_acm"),
            SerialPortInfo(path: "/dev/ttyACM2", stablePath: "/dev/serial/by-id/x", vendorID: 0x1546, productID: 0x01a9, driver: "cdc_acm"),
        ]
        #expect(PortDiscovery.sorted(ports).map(\.path) == ["/dev/ttyACM2", "/dev/ttyACM3", "/dev/ttyUSB0", "/dev/ttyACM1"])
    }
}
