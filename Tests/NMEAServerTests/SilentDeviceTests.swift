import Foundation
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream
import Platform

/// The server's watchdog (``GPSDServer/Configuration/staleLimit``): a served device that stays
/// open and sends nothing, with real sockets and a pseudo-terminal for the receiver.
@Suite("silent devices served", .mayBlock)
struct SilentDeviceTests {
    @Test("a watched device that goes silent, 20 times: each time its watcher is told (DEVICE, activated 0), it is closed and opened again, and fixes come again when it sends; never two descriptors, none left after")
    func silentAndBack() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let said = Protected<[ServerEvent]>([])
        var configuration = GPSDServer.Configuration(devices: [path], speed: 9600, listen: [("127.0.0.1", 0)])
        configuration.staleLimit = .after(.milliseconds(300))
        configuration.events = { event in said.withLock { $0.append(event) } }
        let server = GPSDServer(configuration: configuration)
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let client = try LineClient(port: port)
        _ = client.readLine()
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(client.readLine(containing: "\"class\":\"WATCH\"") != nil)
        var epoch = 0
        var mostOpen = 0
        let cycles = 20
        for cycle in 0..<cycles {
            // Talking: an epoch every 50 ms until a fix comes through (what is written while
            // the device is being opened again may be flushed by the opening).
            var fixed = false, announced = false
            var seen: [String] = []
            let deadline = Date().addingTimeInterval(20)
            while !fixed, Date() < deadline {
                terminal.write(SyntheticEpochs.epoch(epoch))
                epoch += 1
                mostOpen = max(mostOpen, openDescriptorCount(path))
                while let line = client.readLine(seconds: 0.05) {
                    if line.contains("DEVICE") { seen.append(line) }
                    // Back: announced as gpsd announces a device activated again, before its
                    // first report.
                    if !fixed, line.contains("\"class\":\"DEVICE\",\"path\":\"\(path)\""), line.contains("\"activated\":\"") { announced = true }
                    if line.contains("\"class\":\"TPV\"") { fixed = true }
                }
            }
            try #require(fixed, "cycle \(cycle): no fix")
            #expect(cycle == 0 || announced, "cycle \(cycle): a DEVICE with its new activation time before its first TPV: \(seen)")
            // Silent: told, closed, opened again.
            let notice = client.readLine(containing: "\"class\":\"DEVICE\"", seconds: 10)
            try #require(notice?.contains("\"path\":\"\(path)\",\"activated\":0") == true, "cycle \(cycle): \(notice ?? "no notice")")
            #expect(eventually { server.isOpen(path) && openDescriptorCount(path) == 1 }, "cycle \(cycle): opened again")
        }
        #expect(mostOpen == 1, "never two descriptors of the device")
        #expect(server.silentStreamsClosed >= cycles)
        let events = said.withLock { $0 }
        let silences = events.filter { if case .deviceFailed(_, .silent(path, let seconds)) = $0 { seconds >= 0.3 } else { false } }
        let recoveries = events.filter { if case .deviceRecovered = $0 { true } else { false } }
        #expect(silences.count >= cycles && recoveries.count >= cycles - 1, "\(silences.count) silences said, \(recoveries.count) recoveries")
        client.send("?WATCH={\"enable\":false}\n")
        #expect(waitForDescriptors(on: path, count: 0), "its watcher gone: closed, nothing left open")
    }

    @Test("a silent device nobody watches is not opened again; one that stays silent is said once, however many times it is closed")
    func silentUnwatched() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let said = Protected<[ServerEvent]>([])
        var configuration = GPSDServer.Configuration(devices: [path], speed: 9600, listen: [("127.0.0.1", 0)])
        configuration.staleLimit = .after(.milliseconds(200))
        configuration.events = { event in said.withLock { $0.append(event) } }
        let server = GPSDServer(configuration: configuration)
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        var client: LineClient? = try LineClient(port: port)
        _ = client?.readLine()
        client?.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(client?.readLine(containing: "\"activated\":0", seconds: 10) != nil)
        // Closed and opened again (a second each) while the watcher stays, silent throughout.
        #expect(eventually { server.silentStreamsClosed >= 3 })
        let silences = said.withLock { $0.count { if case .deviceFailed(_, .silent) = $0 { true } else { false } } }
        #expect(silences == 1)
        #expect(client?.readLine(containing: "\"activated\":0", seconds: 1) == nil, "the watcher told once")
        client = nil
        #expect(waitForDescriptors(on: path, count: 0))
        let closed = server.silentStreamsClosed
        usleep(1_500_000)
        #expect(openDescriptorCount(path) == 0 && server.silentStreamsClosed <= closed + 1, "not opened again for nobody")
    }
}
