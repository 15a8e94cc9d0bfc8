import Foundation
import Testing
import TestSupport

/// `nmeastream serve` as a user runs it: a real process, a pseudo-terminal for the receiver,
/// a TCP client.
@Suite("nmeastream serve")
struct ServeCommandTests {
    /// Starts `serve` with `arguments`; returns the process and the first line it writes to
    /// standard error (which says where it listens, or why it cannot).
    func start(_ arguments: [String]) throws -> (Process, String) {
        let process = Process()
        process.executableURL = Command.executable
        process.arguments = ["serve"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = errors.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte.first == 0x0A { break }
            line += byte
        }
        return (process, String(decoding: line, as: UTF8.self))
    }

    @Test("serves a device on the address given, with the release asked for: TPV to a watcher; Ctrl-C stops it")
    func serve() throws {
        let terminal = try PseudoTerminal()
        let (process, message) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0", "--report-release", "3.22"])
        defer { if process.isRunning { process.terminate() } }
        #expect(message.hasPrefix("nmeastream: serving \(terminal.devicePath) on 127.0.0.1:"), "\(message)")
        let port = try #require(Int(message.split(separator: ":").last ?? ""))
        let client = try LineClient(port: port)
        #expect(client.readLine()?.hasPrefix("{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\"") == true)
        client.send("?WATCH={\"enable\":true,\"json\":true};")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"") != nil)
        #expect(terminal.waitUntilConfigured())
        terminal.write(Array(try Data(contentsOf: URL(fileURLWithPath: Command.fixture("ublox-multi.nmea")))))
        #expect(client.readLine(containing: "\"class\":\"TPV\"")?.contains("\"device\":\"\(terminal.devicePath)\"") == true)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("a port already taken: exit 69, naming gpsd and the systemctl line that frees it")
    func portTaken() throws {
        let terminal = try PseudoTerminal()
        let (first, message) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0"])
        defer { first.terminate() }
        let port = try #require(Int(message.split(separator: ":").last ?? ""))
        let (second, failure) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:\(port)"])
        second.waitUntilExit()
        #expect(second.terminationStatus == 69)
        #expect(failure.contains("cannot listen on port \(port)") && failure.contains("sudo systemctl stop gpsd.socket gpsd"), "\(failure)")
    }
}
