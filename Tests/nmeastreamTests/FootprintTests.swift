import Foundation
import Testing
import TestSupport

@Suite("the command's footprint", .mayBlock)
struct FootprintTests {
    /// Foundation proper brings ICU (53 MB more of libraries mapped into the process, 6 MB
    /// more resident, and a slower cold start of each report); nothing in the command
    /// needs more than FoundationEssentials, which the argument parser links anyway.
    @Test("links FoundationEssentials only: not Foundation, its internationalisation or ICU")
    func noFullFoundation() throws {
        let ldd = try Command.run([], launcher: ["/usr/bin/ldd"])
        let libraries = ldd.output
        #expect(ldd.status == 0)
        #expect(libraries.contains("libudev.so"), "ldd listed: \(libraries)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!libraries.contains(library), "nmeastream links \(library)")
        }
    }
}
