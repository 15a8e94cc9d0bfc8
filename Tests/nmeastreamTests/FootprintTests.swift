import Foundation
import Testing

@Suite("the command's footprint")
struct FootprintTests {
    /// Foundation proper brings ICU (53 MB more of libraries mapped into the process, 6 MB
    /// more resident, and a slower cold start of each report); nothing in the command
    /// needs more than FoundationEssentials, which the argument parser links anyway.
    @Test("links FoundationEssentials only: not Foundation, its internationalisation or ICU")
    func noFullFoundation() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [Command.executable.path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0)
        #expect(libraries.contains("libudev.so"), "ldd listed: \(libraries)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!libraries.contains(library), "nmeastream links \(library)")
        }
    }
}
