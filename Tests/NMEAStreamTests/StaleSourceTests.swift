#if canImport(Glibc)
import Glibc
import Platform
#endif
import Foundation
import Testing
import TestSupport
@testable import NMEAStream

/// The reader's watchdog (``StaleLimit``) on real sources: a pseudo-terminal that stops
/// sending, and TCP peers that connect and say nothing.
@Suite("Silent sources", .mayBlock)
struct StaleSourceTests {
    @Test("a serial device that stops sending: closed after the limit, and the reader fails saying so; the fixes before are all delivered")
    func silentDevice() throws {
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600), staleLimit: .after(.milliseconds(400)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(terminal.waitUntilConfigured())
        for index in 0..<3 {
            terminal.write(SyntheticEpochs.epoch(index))
            usleep(100_000)
        }
        #expect(recorder.waitForEnd())
        guard case .silent(let source, let seconds)? = recorder.error else {
            Issue.record("not silent: \(String(describing: recorder.error))")
            return
        }
        #expect(source == terminal.devicePath)
        #expect(seconds >= 0.4 && seconds < 5, "\(seconds)")
        #expect(recorder.fixes.count == 3, "the epoch under way delivered at the end")
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0), "closed")
        #expect(recorder.error?.description.hasPrefix("\(terminal.devicePath): sent nothing for ") == true)
    }

    @Test("a device that keeps sending (a 5 Hz receiver, for six times the limit) is never silent")
    func talkingDevice() throws {
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600), staleLimit: .after(.milliseconds(500)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(terminal.waitUntilConfigured())
        // Three seconds of a 5 Hz receiver: six times the limit.
        for index in 0..<15 {
            terminal.write(SyntheticEpochs.epoch(index))
            usleep(200_000)
        }
        #expect(recorder.error == nil)
        #expect(openDescriptorCount(terminal.devicePath) == 1)
    }

    @Test("a TCP peer that accepts and sends nothing (a half-open connection): closed after the limit, the reader fails saying so")
    func silentPeer() throws {
        let (listener, port) = try Self.listeningSocket()
        defer { close(listener) }
        let url = "tcp://127.0.0.1:\(port)"
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: port)), staleLimit: .after(.milliseconds(300)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        #expect(recorder.waitForEnd())
        #expect(recorder.connections == [url], "the kernel completes the connection, though the peer never accepts it")
        guard case .silent(let source, _)? = recorder.error else {
            Issue.record("not silent: \(String(describing: recorder.error))")
            return
        }
        #expect(source == url)
    }

    @Test("the waits between a network peer's connections are no silence: a peer down for longer than the limit is tried again, not given up")
    func downIsNotSilent() throws {
        let port = freeLoopbackPort()
        let reader = NMEAReader(source: .network(.tcp(host: "127.0.0.1", port: port)), staleLimit: .after(.milliseconds(300)))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        defer { reader.stop() }
        // Refused at once, then tried again 1 s and 2 s later: three seconds down.
        #expect(recorder.wait(seconds: 10) { recorder.interruptions.count >= 2 })
        #expect(recorder.error == nil, "\(String(describing: recorder.error))")
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let server = try LoopbackNMEAServer(bytes: bytes, connections: 1, port: port)
        defer { server.close() }
        #expect(recorder.wait(seconds: 10) { recorder.connections.count == 1 })
        #expect(recorder.wait { recorder.fixes.count == Fixtures.expectedFixes(bytes).count })
    }

    @Test("a monitor's subscribers are told the silence; subscribing again opens the device again")
    func monitorReopens() throws {
        let terminal = try PseudoTerminal()
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600), staleLimit: .after(.milliseconds(300)))
        let failure = Protected<GPSError?>(nil)
        let first = monitor.fixes.observe(next: { _ in }, failed: { error in failure.withLock { $0 = error } })
        #expect(eventually { failure.withLock { $0 } != nil })
        if case .silent? = failure.withLock({ $0 }) {} else { Issue.record("\(String(describing: failure.withLock { $0 }))") }
        first.dispose()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        let fixes = Protected(0)
        let second = monitor.fixes.observe { _ in fixes.withLock { $0 += 1 } }
        defer { second.dispose() }
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1))
        #expect(eventually { fixes.withLock { $0 } >= 1 })
    }

    /// A TCP socket listening on a free loopback port that never accepts: connections complete
    /// in the kernel and then hear nothing.
    static func listeningSocket() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let port = bindToFreeLoopbackPort(fd)
        let bound = port != 0
        guard bound, listen(fd, 4) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, port)
    }
}
