import Foundation
import Testing
import TestSupport

@Suite("udev rules", .mayBlock)
struct UdevRulesTests {
    @Test("udev-rules/60-nmeastream.rules is what `nmeastream udev-rules` prints from the catalogue")
    func fileMatchesCommand() throws {
        let file = try String(contentsOf: Command.packageRoot.appendingPathComponent("udev-rules/60-nmeastream.rules"), encoding: .utf8)
        let result = try Command.run(["udev-rules"])
        #expect(result.status == 0)
        #expect(result.output == file, "regenerate it: swift run nmeastream udev-rules > udev-rules/60-nmeastream.rules")
    }

    @Test("every receiver of the catalogue has its rule, every bridge a commented one")
    func everyEntry() throws {
        let rules = try String(contentsOf: Command.packageRoot.appendingPathComponent("udev-rules/60-nmeastream.rules"), encoding: .utf8)
        let data = try Data(contentsOf: Command.packageRoot.appendingPathComponent("Hardware/catalogue.json"))
        let entries = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let lines = rules.split(separator: "\n").map(String.init)
        for entry in entries {
            let vendor = try #require(entry["vendorID"] as? String), product = try #require(entry["productID"] as? String)
            let match = "ATTRS{idVendor}==\"\(vendor)\", ATTRS{idProduct}==\"\(product)\""
            let line = try #require(lines.first { $0.contains(match) }, "\(vendor):\(product)")
            if entry["kind"] as? String == "gps" {
                #expect(!line.hasPrefix("#"))
                #expect(line.contains("SYMLINK+=\"gps%n\"") && line.contains("TAG+=\"uaccess\"") && line.contains("GROUP=\"dialout\""))
                #expect(line.contains("ENV{ID_MM_DEVICE_IGNORE}=\"1\"") || line.contains("ENV{ID_MM_PORT_IGNORE}=\"1\""))
            } else {
                #expect(line.hasPrefix("#"))
            }
        }
        #expect(lines.contains("SUBSYSTEM!=\"tty\", GOTO=\"nmeastream_end\""))
        #expect(lines.last == "LABEL=\"nmeastream_end\"")
    }
}
