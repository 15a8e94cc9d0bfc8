#if canImport(Glibc)
import Glibc
import Platform
#endif
import Foundation
import Testing
import TestSupport
@testable import NMEAServer
import NMEAStream
import Signals
import TimeService

/// `PPS` reports: a receiver's pulses, each paired with the second its report names, sent to
/// clients that watch with `pps`, with the quantization error its TIM-TP announced. No kernel
/// PPS device can be made on the development machine (no `pps-ktimer`, and a pseudo-terminal
/// has no DCD line): a stand-in source gives a pulse at each whole second of the system clock,
/// as a receiver's PPS line would, while the test plays the receiver's reports and TIM-TPs.
@Suite("PPS reports", .mayBlock, .serialized)
struct PulseReportTests {
    /// A pulse at each whole second of the system clock.
    struct SecondPulses: PulseSource {
        func nextPulseTime(timeout: Double) throws -> UTCTime? {
            let now = UTCTime.now.posixTime
            let next = now.seconds + 1
            usleep(useconds_t((1_000_000_000 - now.nanoseconds) / 1000))
            return UTCTime(posixSeconds: next, nanoseconds: 0)
        }
    }

    /// The quantization error the test's TIM-TP announces for `second`, picoseconds.
    static func quantizationError(_ second: Int64) -> Int32 { -Int32(second % 1000) - 1 }

    /// TIM-TP announcing the pulse of UTC second `second` (UTC time base).
    static func timTP(announcing second: Int64) -> [UInt8] {
        let sinceOrigin = second - 315_964_800
        var p = PayloadBuilder(length: 16)
        p.u4(0, UInt32(sinceOrigin % 604_800) * 1000)
        p.i4(8, quantizationError(second))
        p.u2(12, UInt16(sinceOrigin / 604_800))
        p.u1(14, 0x01)
        return ubx(0x0D, 0x01, p.bytes)
    }

    /// GGA and RMC naming UTC second `second`.
    static func reports(_ second: Int64) -> [UInt8] {
        let time = UTCTime(posixSeconds: second, nanoseconds: 0)
        let clock = String(format: "%02d%02d%02d.00", time.timeOfDay.hour, time.timeOfDay.minute, time.timeOfDay.second)
        let date = String(format: "%02d%02d%02d", time.date.day, time.date.month, time.date.year % 100)
        return Array((SyntheticEpochs.sentence("GPGGA,\(clock),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
                      + SyntheticEpochs.sentence("GPRMC,\(clock),A,5207.4074,N,00419.2659,E,0.0,0.0,\(date),,,A")).utf8)
    }

    @Test("each pulse as PPS: the second it began beside its edge's system time, precision -20, the TIM-TP's qErr; TOFF beside it; a client without pps gets neither")
    func pulses() throws {
        let terminal = try PseudoTerminal()
        var configuration = GPSDServer.Configuration(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)])
        configuration.pulseInputs = [terminal.devicePath: .ppsDevice("/dev/pps-stand-in")]
        configuration.openPulses = { _, _ in SecondPulses() }
        let server = GPSDServer(configuration: configuration)
        let port = try #require(try server.start().first?.port)
        defer { server.stop() }
        let timing = try LineClient(port: port), plain = try LineClient(port: port)
        timing.send(#"?WATCH={"enable":true,"json":true,"pps":true};"#)
        plain.send(#"?WATCH={"enable":true,"json":true};"#)
        #expect(timing.readLine(containing: "\"class\":\"WATCH\"")?.contains("\"pps\":true") == true)
        try #require(terminal.waitUntilConfigured())

        // The receiver: after each whole second, its TIM-TP for the next pulse, then the
        // reports of the second that began, as a u-blox timing receiver sends them.
        let stop = Protected(false)
        let played = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let receiver = terminal
        Thread.detachNewThread {
            while !stop.withLock({ $0 }) {
                let now = UTCTime.now.posixTime
                usleep(useconds_t((1_000_000_000 - now.nanoseconds) / 1000) + 30_000)
                let second = now.seconds + 1
                receiver.write(Self.timTP(announcing: second + 1) + Self.reports(second))
            }
            played.signal()
        }
        defer {
            stop.withLock { $0 = true }
            played.wait()
        }

        let line = try #require(timing.readLine(containing: "\"class\":\"PPS\"", seconds: 15), "no PPS report")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let second = try #require(report["real_sec"] as? Int)
        #expect(report["device"] as? String == terminal.devicePath)
        #expect(report["real_nsec"] as? Int == 0 && report["clock_sec"] as? Int == second && report["clock_nsec"] as? Int == 0, "\(line)")
        #expect(report["precision"] as? Int == -20)
        #expect(report["qErr"] as? Int == Int(Self.quantizationError(Int64(second))), "\(line)")
        let toff = try #require(timing.readLine(containing: "\"class\":\"TOFF\"", seconds: 5))
        #expect(toff.contains("\"precision\":-1"), "\(toff)")
        // The other client, all along: reports, and no time samples.
        var seen: [String] = []
        while seen.count < 12, let next = plain.readLine(seconds: 5) { seen.append(next) }
        #expect(seen.contains { $0.contains("\"class\":\"TPV\"") } && !seen.contains { $0.contains("\"class\":\"PPS\"") || $0.contains("\"class\":\"TOFF\"") },
                "\(seen)")
    }

    /// A server of `terminal` started with `configuration`, and a client watching it in JSON
    /// with `pps`, once the device is open and configured.
    static func watchedWithPPS(_ terminal: PseudoTerminal, _ configuration: GPSDServer.Configuration) throws -> (GPSDServer, LineClient) {
        let server = GPSDServer(configuration: configuration)
        do {
            let port = try #require(try server.start().first?.port)
            let client = try LineClient(port: port)
            client.send(#"?WATCH={"enable":true,"json":true,"pps":true};"#)
            try #require(terminal.waitUntilConfigured())
            return (server, client)
        } catch {
            server.stop()
            throw error
        }
    }

    @Test("pulses on the line's DCD, asked of a pseudo-terminal (which has no modem lines): said once, with why, and the device still served, TOFF included")
    func carrierDetectRefused() throws {
        let terminal = try PseudoTerminal()
        let told = Protected<[String]>([])
        var configuration = GPSDServer.Configuration(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)])
        configuration.pulseInputs = [terminal.devicePath: .carrierDetect]
        configuration.events = { event in
            if case .pulsesUnavailable(let path, let reason) = event { told.withLock { $0.append("\(path): \(reason)") } }
        }
        let (server, client) = try Self.watchedWithPPS(terminal, configuration)
        defer { server.stop() }
        let written = terminal.writeEpochs(0..<8, every: 100_000)
        defer { written.wait() }
        #expect(client.readLine(containing: "\"class\":\"TOFF\"", seconds: 10) != nil)
        #expect(told.withLock { $0 } == ["\(terminal.devicePath): \(terminal.devicePath) has no modem lines, so no DCD to watch (a pseudo-terminal, or a USB adapter without them)"])
    }

    @Test("a fix's TOFF goes just before its TPV: the time reports are a subscriber of their own, subscribed before the device's reports")
    func timeOffsetBeforeReport() throws {
        let terminal = try PseudoTerminal()
        let (server, client) = try Self.watchedWithPPS(terminal, .init(devices: [terminal.devicePath], speed: 9600, listen: [("127.0.0.1", 0)]))
        defer { server.stop() }
        let written = terminal.writeEpochs(0..<6, every: 100_000)
        defer { written.wait() }
        var lines: [String] = []
        while lines.count(where: { $0.contains("\"class\":\"TPV\"") }) < 5, let line = client.readLine(seconds: 10) { lines.append(line) }
        let reports = lines.filter { $0.contains("\"class\":\"TOFF\"") || $0.contains("\"class\":\"TPV\"") }
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var pairs = 0
        for (toff, next) in zip(reports, reports.dropFirst()) where toff.contains("\"class\":\"TOFF\"") {
            #expect(next.contains("\"class\":\"TPV\""), "a TOFF, then its TPV: \(reports)")
            let offset = try #require(try JSONSerialization.jsonObject(with: Data(toff.utf8)) as? [String: Any])
            let fix = try #require(try JSONSerialization.jsonObject(with: Data(next.utf8)) as? [String: Any])
            let time = try #require((fix["time"] as? String).flatMap(parser.date(from:)))
            #expect(offset["real_sec"] as? Int == Int(time.timeIntervalSince1970), "the TOFF of the fix that follows it: \(toff) \(next)")
            pairs += 1
        }
        #expect(pairs >= 3, "\(reports)")
    }
}
