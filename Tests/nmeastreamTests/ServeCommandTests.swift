#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `nmeastream serve` as a user runs it: a real process, a pseudo-terminal for the receiver,
/// a TCP client.
@Suite("nmeastream serve", .mayBlock)
struct ServeCommandTests {
    /// Starts `serve` with `arguments`; returns the process and the first line it writes to
    /// standard error (which says where it listens, or why it cannot), or the first `lines`.
    func start(_ arguments: [String], lines: Int = 1) throws -> (Process, String) {
        let process = Process()
        process.executableURL = Command.executable
        process.arguments = ["serve"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = errors.fileHandleForReading
        var left = lines
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { break }
            if byte.first == 0x0A {
                left -= 1
                if left == 0 { break }
            }
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

    @Test("socket activation: given its listening socket as systemd gives it (LISTEN_FDS), serve answers on it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"), "systemd-socket-activate is absent"))
    func socketActivation() throws {
        let terminal = try PseudoTerminal()
        // A port free now (bound and released), for systemd-socket-activate to listen on.
        let port = freeLoopbackPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = ["-l", "127.0.0.1:\(port)", Command.executable.path, "serve", terminal.devicePath, "--speed", "9600"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var client: LineClient?
        for _ in 0..<500 where client == nil {
            client = try? LineClient(port: port)
            if client == nil { usleep(10_000) }
        }
        let connected = try #require(client)
        #expect(connected.readLine()?.hasPrefix("{\"class\":\"VERSION\"") == true, "served on the socket systemd passed")
        connected.send("?WATCH={\"enable\":true,\"json\":true};")
        #expect(connected.readLine(containing: "\"class\":\"WATCH\"") != nil)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("a device that cannot be opened is said when a client watches it, once however often it is retried, with --verbose its opening too; serve keeps serving")
    func deviceFailureSaid() throws {
        let missing = "/dev/nmeastream-missing-\(UUID().uuidString.prefix(8))"
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-serve-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let serve = try ChildProcess(Command.executable.path, ["serve", missing, "--listen", "127.0.0.1:0", "--verbose"], errorPath: errors)
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }
        let said = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        try #require(waitForChanges(to: errors) { said().contains("serving \(missing) on 127.0.0.1:") }, "\(said())")
        let port = try #require(said().split(separator: "\n").first.flatMap { Int($0.split(separator: ":").last ?? "") })
        #expect(!said().contains("no such device"), "nothing is opened before a client watches")
        let client = try LineClient(port: port)
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        #expect(waitForChanges(to: errors, seconds: 5) { said().contains("\(missing): no such device") }, "\(said())")
        // Three retries later, still said once; the client was told the device is gone.
        #expect(client.readLine(containing: #""activated":0"#, seconds: 5) != nil)
        usleep(3_500_000)
        #expect(said().components(separatedBy: "no such device").count == 2, "\(said())")
        #expect(said().contains("\(missing): opening, for its first watcher"), "\(said())")
        #expect(serve.isRunning)
    }

    @Test("a device missing at start and plugged in later: its failure said once, then that it reports again, and its watcher gets fixes")
    func deviceRecoverySaid() throws {
        // A path that names nothing until it is made a link to a receiver's pseudo-terminal.
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-gps-\(UUID().uuidString.prefix(8))").path
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-serve-\(UUID().uuidString).err").path
        defer {
            try? FileManager.default.removeItem(atPath: errors)
            try? FileManager.default.removeItem(atPath: link)
        }
        let serve = try ChildProcess(Command.executable.path, ["serve", link, "--speed", "9600", "--listen", "127.0.0.1:0"], errorPath: errors)
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }
        let said = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        try #require(waitForChanges(to: errors) { said().contains("serving \(link) on 127.0.0.1:") }, "\(said())")
        let port = try #require(said().split(separator: "\n").first.flatMap { Int($0.split(separator: ":").last ?? "") })
        let client = try LineClient(port: port)
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        try #require(waitForChanges(to: errors, seconds: 5) { said().contains("\(link): ") && said().contains("tried again every second") }, "\(said())")
        #expect(!said().contains("reporting again"))

        let terminal = try PseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: terminal.devicePath)
        #expect(terminal.waitUntilConfigured(), "opened again within a retry")
        for second in 0..<8 where !said().contains("reporting again") {
            let time = String(format: "1200%02d.00", second)
            terminal.write(Array((SyntheticEpochs.sentence("GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
                                  + SyntheticEpochs.sentence("GPRMC,\(time),A,5207.4074,N,00419.2659,E,0.0,0.0,261126,,,A")).utf8))
            usleep(250_000)
        }
        #expect(waitForChanges(to: errors, seconds: 5) { said().contains("\(link): reporting again") }, "\(said())")
        #expect(said().components(separatedBy: "tried again every second").count == 2, "the failure said once: \(said())")
        #expect(client.readLine(containing: #""class":"TPV""#, seconds: 5) != nil)
        #expect(serve.isRunning)
    }

    @Test("a port already taken: exit 69, naming the address and the option that changes it")
    func portTaken() throws {
        let terminal = try PseudoTerminal()
        let (first, message) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0"])
        defer { first.terminate() }
        let port = try #require(Int(message.split(separator: ":").last ?? ""))
        let (second, failure) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:\(port)"])
        second.waitUntilExit()
        #expect(second.terminationStatus == 69)
        #expect(failure.contains("cannot listen on 127.0.0.1:\(port): address already in use; choose another with --listen"), "\(failure)")
        // The system's words, not SwiftNIO's name for the call it made.
        #expect(!failure.contains("bind(") && !failure.contains("errno"), "\(failure)")
        // gpsd is named only for its own port, 2947.
        #expect(!failure.contains("gpsd"), "\(failure)")
    }

    @Test("--nmea and --nmea-udp: where they go said; a feed client and a datagram receiver get the receiver's sentences; Ctrl-C stops it")
    func nmeaFeed() throws {
        let terminal = try PseudoTerminal()
        let receiver = DatagramReceiver()
        let (process, message) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0",
                                            "--nmea", "127.0.0.1:0", "--nmea-udp", "127.0.0.1:\(receiver.port)"], lines: 3)
        defer { if process.isRunning { process.terminate() } }
        let lines = message.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(message)")
        #expect(lines[1].hasPrefix("nmeastream: NMEA feed on 127.0.0.1:"), "\(message)")
        #expect(lines[2] == "nmeastream: NMEA datagrams to 127.0.0.1:\(receiver.port)", "\(message)")
        let port = try #require(Int(lines[1].split(separator: ":").last ?? ""))
        let feed = try LineClient(port: port)
        #expect(terminal.waitUntilConfigured())
        // The device is read from the start, for the datagrams; the feed's client is served
        // from whenever the server has taken it in, which nothing outside tells: the receiver
        // sends on, as a real one does, and the client gets the stream from some sentence on.
        let epochs = 0..<40
        let written = terminal.writeEpochs(epochs, every: 50_000)
        let sentences = epochs.flatMap { String(decoding: SyntheticEpochs.epoch($0), as: UTF8.self).split(separator: "\r\n").map(String.init) }
        let first = try #require(feed.readLine())
        let start = try #require(sentences.firstIndex(of: first), "\(first)")
        #expect(start + 1 < sentences.count && feed.readLine() == sentences[start + 1], "the next sentence, whole")
        #expect(receiver.receive().map { String(decoding: $0, as: UTF8.self) } == sentences[0] + "\r\n")
        #expect(receiver.receive().map { String(decoding: $0, as: UTF8.self) } == sentences[1] + "\r\n")
        written.wait()
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("--nmea on a port already taken: exit 69, naming the feed and the option that changes it")
    func nmeaPortTaken() throws {
        let terminal = try PseudoTerminal()
        let (first, message) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0", "--nmea", "127.0.0.1:0"], lines: 2)
        defer { first.terminate() }
        let port = try #require(Int(message.split(separator: ":").last ?? ""))
        let (second, failure) = try start([terminal.devicePath, "--speed", "9600", "--listen", "127.0.0.1:0", "--nmea", "127.0.0.1:\(port)"])
        second.waitUntilExit()
        #expect(second.terminationStatus == 69)
        #expect(failure.contains("cannot listen on 127.0.0.1:\(port) for the NMEA feed") && failure.contains("choose another with --nmea"), "\(failure)")
    }
}
