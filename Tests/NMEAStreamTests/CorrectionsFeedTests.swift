#if canImport(Glibc)
import Platform
import Glibc
#endif
import Foundation
import NMEA
import Signals
import Testing
import TestSupport
@testable import NMEAStream

/// RTK corrections from a real caster (RTKLIB's `str2str`) to a receiver's device (a
/// pseudo-terminal whose other side the test reads): every frame byte for byte and in order,
/// nothing written while no watcher holds the device open, the position sent upstream, and
/// the caster's faults.
@Suite("Corrections feed", .mayBlock, .serialized, .enabled(if: RTKLIBCaster.isInstalled, "rtklib (str2str) is not installed"))
struct CorrectionsFeedTests {
    final class Recorder: @unchecked Sendable {
        private let stored = Watched<[CorrectionsEvent]>([])

        func take(_ event: CorrectionsEvent) { stored.change { $0.append(event) } }
        var events: [CorrectionsEvent] { stored.current }
        /// Waits until `condition` holds, asked again after each event, at most `seconds`.
        func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
            stored.wait(seconds: seconds) { _ in condition() }
        }
        var streamings: Int { events.count { if case .streaming = $0 { true } else { false } } }
        var interruptions: [NetworkInterruption] { events.compactMap { if case .interrupted(let what) = $0 { what } else { nil } } }
        var refusals: [DeviceWriteRefusal] { events.compactMap { if case .notWritten(_, let why) = $0 { why } else { nil } } }
        var writings: Int { events.count { if case .writing = $0 { true } else { false } } }
    }

    static func feed(_ caster: RTKLIBCaster, version: NTRIPVersion = .v2, positionInterval: Duration? = nil,
                     silenceLimit: Duration = NTRIPClient.defaultSilenceLimit) -> (CorrectionsFeed, Recorder) {
        let recorder = Recorder()
        let endpoint = NTRIPEndpoint(host: "127.0.0.1", port: caster.port, mountpoint: "MOUNT", user: "me", password: "pw")
        let corrections = Corrections(caster: endpoint, version: version, positionInterval: positionInterval, silenceLimit: silenceLimit)
        return (CorrectionsFeed(corrections: corrections) { recorder.take($0) }, recorder)
    }

    /// Sends `frames` to the caster's input, a few at a time.
    static func send(_ frames: [[UInt8]], to input: LineClient) {
        for (index, frame) in frames.enumerated() {
            input.send(bytes: frame)
            if index % 10 == 9 { usleep(5_000) }
        }
    }

    /// Sends `frames` to the caster while reading the receiver's side: whether exactly their
    /// bytes arrived, in order.
    static func relay(_ frames: [[UInt8]], through input: LineClient, to terminal: PseudoTerminal) -> Bool {
        let difference = RTCM3TestFrames.relay(frames, through: input, to: terminal)
        if let difference { Issue.record(Comment(rawValue: difference)) }
        return difference == nil
    }

    @Test("every frame reaches the receiver's device byte for byte and in order, only while a watcher holds it open",
          arguments: NTRIPVersion.allCases)
    func framesWhileWatched(version: NTRIPVersion) throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let terminal = try PseudoTerminal()
        let (feed, recorder) = Self.feed(caster, version: version)
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: .bitsPerSecond(9600)), corrections: feed)

        // No watcher: no connection to the caster, nothing written.
        Self.send((0..<20).map(RTCM3TestFrames.numbered), to: input)
        #expect(terminal.read(upTo: 1, seconds: 0.5).isEmpty)
        #expect(recorder.streamings == 0)

        var watcher: Disposable? = monitor.fixes.observe { _ in }
        try #require(terminal.waitUntilConfigured())
        try #require(recorder.wait(seconds: 20) { recorder.streamings == 1 }, "\(recorder.events)")
        let frames = (100..<400).map(RTCM3TestFrames.numbered)
        #expect(Self.relay(frames, through: input, to: terminal))
        #expect(feed.status.frameCount == frames.count && feed.status.bytesWritten == frames.joined().count)
        #expect(recorder.writings == 1 && recorder.refusals.isEmpty)

        // The last watcher leaves: the device closes, the caster's connection with it.
        watcher?.dispose()
        watcher = nil
        feed.waitUntilClosed()
        #expect(!feed.status.isStreaming)
        Self.send((400..<420).map(RTCM3TestFrames.numbered), to: input)
        #expect(terminal.read(upTo: 1, seconds: 0.5).isEmpty)
        #expect(feed.status.frameCount == frames.count)

        // A new watcher: connected again; what the caster sends from then on is written.
        watcher = monitor.fixes.observe { _ in }
        defer { watcher?.dispose() }
        try #require(recorder.wait { recorder.streamings == 2 }, "\(recorder.events)")
        #expect(Self.relay((500..<520).map(RTCM3TestFrames.numbered), through: input, to: terminal))
    }

    @Test("the caster killed and restarted: connected again, every frame sent to it written once, none twice")
    func casterRestarted() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let terminal = try PseudoTerminal()
        let (feed, recorder) = Self.feed(caster)
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: .bitsPerSecond(9600)), corrections: feed)
        let watcher = monitor.fixes.observe { _ in }
        defer { watcher.dispose() }
        try #require(recorder.wait(seconds: 20) { recorder.streamings == 1 }, "\(recorder.events)")
        let before = (0..<50).map(RTCM3TestFrames.numbered)
        #expect(Self.relay(before, through: try LineClient(port: caster.input), to: terminal))

        try caster.restart()
        try #require(recorder.wait(seconds: 15) { recorder.streamings == 2 }, "\(recorder.events)")
        #expect(!recorder.interruptions.isEmpty)
        let after = (50..<100).map(RTCM3TestFrames.numbered)
        #expect(Self.relay(after, through: try LineClient(port: caster.input), to: terminal))
        #expect(feed.status.frameCount == before.count + after.count)
    }

    @Test("the receiver's position goes to the caster as GGA, as a network mountpoint needs")
    func positionUpstream() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let terminal = try PseudoTerminal()
        let (feed, recorder) = Self.feed(caster, positionInterval: .milliseconds(300))
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: .bitsPerSecond(9600)), corrections: feed)
        let watcher = monitor.fixes.observe { _ in }
        defer { watcher.dispose() }
        try #require(terminal.waitUntilConfigured())
        try #require(recorder.wait(seconds: 20) { recorder.streamings == 1 }, "\(recorder.events)")
        for second in 0..<4 {
            terminal.write(SyntheticEpochs.epoch(second))
            usleep(250_000)
        }
        // What the client sent the caster comes back out of its input (str2str -b 1).
        let line = try #require(input.readLine(containing: "GGA", seconds: 10))
        #expect(line.hasPrefix("$GPGGA,1200") && line.contains(",5207.4074000,N,00419.2659000,E,1,08,0.9,10.200,M,47.000,M,,*"), "\(line)")
        #expect(feed.status.positionsSent >= 1)
    }

    @Test("a caster that accepts and then sends nothing: dropped after the silence limit and connected again")
    func silentCaster() throws {
        let server = try LoopbackNMEAServer(bytes: Array("ICY 200 OK\r\n\r\n".utf8), connections: 3, holdsOpen: true)
        defer { server.close() }
        let recorder = Recorder()
        let endpoint = NTRIPEndpoint(host: "127.0.0.1", port: server.port, mountpoint: "MOUNT")
        let feed = CorrectionsFeed(corrections: Corrections(caster: endpoint, version: .v1, positionInterval: nil,
                                                            silenceLimit: .milliseconds(500))) { recorder.take($0) }
        let terminal = try PseudoTerminal()
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: .bitsPerSecond(9600)), corrections: feed)
        let watcher = monitor.fixes.observe { _ in }
        defer { watcher.dispose() }
        #expect(recorder.wait { recorder.interruptions.contains { $0.reason == "the caster sent nothing for 0.5 s" } }, "\(recorder.events)")
        #expect(eventually { server.acceptedCount >= 2 })
    }

    @Test("a receiver's queue held up while the caster streams: frames wait in a bounded hand-off, the oldest dropped and counted, the newest written after")
    func receiverQueueHeldUp() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let terminal = try PseudoTerminal()
        let (feed, recorder) = Self.feed(caster)
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: .bitsPerSecond(9600)), corrections: feed)
        let watcher = monitor.fixes.observe { _ in }
        defer { watcher.dispose() }
        try #require(terminal.waitUntilConfigured())
        try #require(recorder.wait(seconds: 20) { recorder.streamings == 1 }, "\(recorder.events)")
        let reader = try #require(monitor.currentReader)
        let release = DispatchSemaphore(value: 0), held = DispatchSemaphore(value: 0)
        reader.executor.schedule {
            held.signal()
            release.wait()
        }
        held.wait()
        let frames = (0..<500).map(RTCM3TestFrames.numbered)
        Self.send(frames, to: input)
        #expect(eventually { feed.status.framesDropped == frames.count - CorrectionsFeed.handOffCapacity }, "\(feed.status)")
        #expect(feed.status.frameCount == 0)
        release.signal()
        #expect(eventually { feed.status.frameCount == CorrectionsFeed.handOffCapacity }, "\(feed.status)")
        // The newest were kept, whole and in order.
        let received = terminal.read(upTo: 1 << 20, seconds: 2)
        #expect(received == Array(frames.suffix(CorrectionsFeed.handOffCapacity).joined()))
    }

    @Test("a receiver's line too slow for the corrections: frames dropped whole and counted, never cut")
    func slowLine() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let input = try LineClient(port: caster.input)
        let terminal = try PseudoTerminal()
        let (feed, recorder) = Self.feed(caster)
        let monitor = GPSMonitor(source: .serial(path: terminal.devicePath, speed: .bitsPerSecond(9600)), corrections: feed)
        let watcher = monitor.fixes.observe { _ in }
        defer { watcher.dispose() }
        try #require(recorder.wait(seconds: 20) { recorder.streamings == 1 }, "\(recorder.events)")
        // Nobody reads the terminal's other side: its buffer fills, then the writer's backlog.
        let frames = (0..<2000).map(RTCM3TestFrames.numbered)
        Self.send(frames, to: input)
        #expect(eventually { feed.status.frameCount + feed.status.framesDropped == frames.count }, "\(feed.status)")
        #expect(feed.status.framesDropped > 0)
        #expect(recorder.refusals.contains(.backlogFull))
        // What does reach the receiver is whole frames, in order, with none cut.
        let received = terminal.read(upTo: 1 << 20, seconds: 3)
        var framer = RTCM3Framer()
        var got: [[UInt8]] = []
        framer.feed(received) { got.append($0.bytes) }
        #expect(framer.counts.bytesSkipped == 0 && framer.counts.badChecksums == 0)
        #expect(got.count >= feed.status.frameCount - 1)
        var remaining = frames[...]
        for frame in got {
            guard let index = remaining.firstIndex(of: frame) else {
                Issue.record("a frame out of order")
                break
            }
            remaining = remaining[(index + 1)...]
        }
    }
}
