#if canImport(Glibc)
import Platform
import Glibc
#endif
import Foundation
import Testing
import TestSupport
@testable import NMEAStream


/// The NTRIP client against a real caster: RTKLIB's `str2str` relaying what the test writes
/// to its input port to every NTRIP client of its mountpoint (live: a client gets what
/// arrives after it connected).
@Suite("NTRIP client", .mayBlock, .serialized, .enabled(if: RTKLIBCaster.isInstalled, "rtklib (str2str) is not installed"))
struct NTRIPClientTests {
    /// What a client was told.
    final class Recorder: @unchecked Sendable {
        private let stored = Watched<[NTRIPClient.Event]>([])

        func take(_ event: NTRIPClient.Event) { stored.change { $0.append(event) } }
        var events: [NTRIPClient.Event] { stored.current }
        /// Waits until `condition` holds, asked again after each event, at most `seconds`.
        func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
            stored.wait(seconds: seconds) { _ in condition() }
        }
        var frames: [[UInt8]] { events.compactMap { if case .frame(let frame) = $0 { frame.bytes } else { nil } } }
        var streamings: Int { events.count { if case .streaming = $0 { true } else { false } } }
        var refusals: [NTRIPRefusal] { events.compactMap { if case .refused(let refusal) = $0 { refusal } else { nil } } }
        var interruptions: [NetworkInterruption] { events.compactMap { if case .interrupted(let what) = $0 { what } else { nil } } }
    }

    static func client(_ caster: RTKLIBCaster, mount: String = "MOUNT", password: String = "pw", version: NTRIPVersion) -> (NTRIPClient, Recorder) {
        client(port: caster.port, mount: mount, password: password, version: version)
    }

    /// A client of the caster on `port` (started or not), and what it is told.
    static func client(port: Int, mount: String = "MOUNT", password: String = "pw", version: NTRIPVersion) -> (NTRIPClient, Recorder) {
        let recorder = Recorder()
        let endpoint = NTRIPEndpoint(host: "127.0.0.1", port: port, mountpoint: mount, user: "me", password: password)
        let client = NTRIPClient(endpoint: endpoint, version: version) { recorder.take($0) }
        return (client, recorder)
    }

    @Test("frames through a real caster: every one, byte for byte, in order; noise and a corrupt frame between them dropped and counted",
          arguments: NTRIPVersion.allCases)
    func frames(version: NTRIPVersion) throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let (client, recorder) = Self.client(caster, version: version)
        client.start()
        defer { client.stop() }
        try #require(recorder.wait { recorder.streamings == 1 }, "\(recorder.events)")
        let sender = try LineClient(port: caster.input)
        let frames = (0..<200).map(RTCM3TestFrames.numbered)
        var corrupt = RTCM3TestFrames.numbered(7)
        corrupt[5] ^= 0x10
        for (index, frame) in frames.enumerated() {
            sender.send(bytes: frame + (index == 100 ? Array("$GPGGA,noise\r\n".utf8) + corrupt : []))
            if index % 20 == 0 { usleep(10_000) }
        }
        #expect(recorder.wait { recorder.frames.count >= frames.count })
        #expect(recorder.frames == frames)
        #expect(client.counts.frameCount == frames.count && client.counts.badChecksums >= 1 && client.counts.bytesSkipped > 0)
        #expect(recorder.refusals.isEmpty && recorder.interruptions.isEmpty)
    }

    @Test("a wrong password: refused, said as such; an unknown mountpoint: refused, with the caster's mountpoints")
    func refusals() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let (wrong, told) = Self.client(caster, password: "wrong", version: .v1)
        wrong.start()
        #expect(told.wait { !told.refusals.isEmpty })
        wrong.stop()
        #expect(told.refusals.first == .unauthorized(user: "me"))
        #expect(told.refusals.first?.description == "the caster refused the password of me")
        #expect(told.streamings == 0)
        let (unknown, answered) = Self.client(caster, mount: "NOPE", version: .v1)
        unknown.start()
        #expect(answered.wait { !answered.refusals.isEmpty })
        unknown.stop()
        #expect(answered.refusals.first == .noSuchMountpoint("NOPE", available: ["MOUNT"]))
        #expect(answered.refusals.first?.description == "the caster has no mountpoint NOPE; it has MOUNT")
    }

    @Test("a peer that does not speak NTRIP (garbage lines, endless headers): refused once, escaped, dropped, and not tried again before the longest wait",
          arguments: ["endless headers", "a captive portal's page"])
    func notNTRIP(peerKind: String) throws {
        let answer = peerKind == "endless headers"
            ? "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Junk: \u{1B}[2J\r\n", count: 20_000)
            : String(repeating: "<html>captive portal \u{1B}]0;pwned\u{07}</html>\r\n", count: 20_000)
        let peer = try LoopbackNMEAServer(bytes: Array(answer.utf8), connections: 10, holdsOpen: true)
        defer { peer.close() }
        let (client, recorder) = Self.client(port: peer.port, version: .v2)
        client.start()
        defer { client.stop() }
        #expect(recorder.wait { !recorder.refusals.isEmpty })
        // Time for a second connection, were it tried at the first wait (1 s).
        usleep(2_500_000)
        #expect(peer.acceptedCount == 1)
        #expect(recorder.refusals.count == 1, "\(recorder.refusals)")
        guard case .notNTRIP = recorder.refusals.first else {
            Issue.record("\(recorder.refusals)")
            return
        }
        let said = recorder.refusals.first?.description ?? ""
        #expect(!said.contains("\u{1B}") && !said.contains("\u{07}") && said.count < 200, "\(said)")
        #expect(recorder.interruptions.isEmpty)
    }

    @Test("a stream of false RTCM 3 preambles (D3 03 pairs): dropped as no RTCM 3 once 64 KiB pass without a frame, said once")
    func falsePreambles() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let (client, recorder) = Self.client(caster, version: .v2)
        client.start()
        defer { client.stop() }
        try #require(recorder.wait { recorder.streamings == 1 })
        let sender = try LineClient(port: caster.input)
        // 16 KiB at a time until the client gives up on the stream: the caster relays only
        // what comes after it has taken the input's connection, whenever that is.
        let garbage = Array(repeating: [UInt8]([0xD3, 0x03]), count: 8192).flatMap { $0 }
        var refused = false
        for _ in 0..<600 where !refused {
            sender.send(bytes: garbage)
            refused = recorder.wait(seconds: 0.05) { !recorder.refusals.isEmpty }
        }
        #expect(refused, "\(recorder.events.count) events")
        #expect(recorder.refusals.map(\.description) == ["no RTCM 3 frame in the stream's last 64 KiB"])
        #expect(recorder.frames.isEmpty)
    }

    @Test("the caster killed and started again: the loss said, reconnected, the frames after it all come, none twice")
    func casterRestarts() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let (client, recorder) = Self.client(caster, version: .v2)
        client.start()
        defer { client.stop() }
        try #require(recorder.wait { recorder.streamings == 1 })
        var sender = try LineClient(port: caster.input)
        let before = (0..<20).map(RTCM3TestFrames.numbered)
        for frame in before { sender.send(bytes: frame) }
        #expect(recorder.wait { recorder.frames.count == before.count })
        try caster.restart()
        #expect(recorder.wait(seconds: 20) { recorder.streamings == 2 }, "\(recorder.events)")
        #expect(!recorder.interruptions.isEmpty)
        sender = try LineClient(port: caster.input)
        let after = (20..<40).map(RTCM3TestFrames.numbered)
        for frame in after { sender.send(bytes: frame) }
        #expect(recorder.wait { recorder.frames.count == before.count + after.count })
        #expect(recorder.frames == before + after)
    }

    @Test("the caster down at the start: each refusal said with its wait, and streaming once it comes")
    func casterDownAtStart() throws {
        let port = freeLoopbackPort(), input = freeLoopbackPort()
        let (client, recorder) = Self.client(port: port, version: .v1)
        client.start()
        defer { client.stop() }
        #expect(recorder.wait { recorder.interruptions.count >= 1 })
        #expect(recorder.interruptions.first?.description == "ntrip://me@127.0.0.1:\(port)/MOUNT: connection refused; trying again in 1 s")
        let caster = try RTKLIBCaster(input: input, port: port)
        defer { caster.stop() }
        #expect(recorder.wait(seconds: 15) { recorder.streamings == 1 })
    }
}
