import Foundation
import NMEA
import Testing
import TestSupport

@Suite("nmeastream --version", .mayBlock)
struct VersionTests {
    @Test("--version prints the one release, and serve's VERSION reports the same one (the page's footer shows it)")
    func oneVersion() throws {
        let printed = try Command.run(["--version"])
        #expect(printed.status == 0)
        #expect(printed.output == NMEAStreamRelease.version + "\n")
        #expect(NMEAStreamRelease.version.split(separator: ".").count == 3
                && NMEAStreamRelease.version.split(separator: ".").allSatisfy { Int($0) != nil })

        let terminal = try PseudoTerminal()
        let (server, message) = try ServeCommandTests().start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0"])
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let port = try #require(Int(message.split(separator: ":").last ?? ""), "\(message)")
        let client = try LineClient(port: port)
        let greeting = try #require(client.readLine(seconds: 10))
        #expect(greeting.hasPrefix(#"{"class":"VERSION","release":"\#(NMEAStreamRelease.version)","rev":"nmeastream \#(NMEAStreamRelease.version)""#),
                "\(greeting)")
    }
}
