import Testing
import NMEA
@testable import GPSDProtocol

/// The UTC time `seconds` after 1970.
func time(_ seconds: Int64) -> UTCTime {
    UTCTime(date: CalendarDate(daysSince1970: Int(seconds / 86_400)),
            timeOfDay: TimeOfDay(nanosecondsSinceMidnight: seconds % 86_400 * 1_000_000_000))
}

@Suite("Watch policy and client session")
struct SessionTests {
    @Test("?WATCH as gpsd reads it: enable true when absent, json/nmea/raw kept, device and the rest reset")
    func watchDefaults() throws {
        var policy = WatchPolicy()
        try policy.apply(["json": .bool(true), "raw": .bool(true), "device": .string("/dev/ttyACM0"), "pps": .bool(true)])
        #expect(policy.enable && policy.json && !policy.nmea && policy.raw == 1 && policy.device == "/dev/ttyACM0" && policy.pps)
        try policy.apply(["nmea": .bool(true), "raw": .number(2), "unknown": .string("ignored")])
        #expect(policy.enable && policy.json && policy.nmea && policy.raw == 2 && policy.device == nil && !policy.pps)
        try policy.apply(["enable": .bool(false)])
        #expect(!policy.enable && policy.json && policy.nmea && policy.raw == 2)
        let before = policy
        #expect(throws: ProtocolError.self) { try policy.apply(["enable": .string("yes")]) }
        #expect(throws: ProtocolError.self) { try policy.apply(["class": .string("POLL")]) }
        #expect(throws: ProtocolError.self) { try policy.apply(["raw": .number(3)]) }
        #expect(policy == before, "an error changes nothing")
    }

    static let devices = [
        DeviceDescription(path: "/dev/ttyACM0", activated: time(1_700_000_000), bitsPerSecond: 9600, seenNMEA: true),
        DeviceDescription(path: "/dev/ttyUSB0"),
    ]
    static let server = ClientSession.ServerState(
        devices: devices, version: VersionInfo(release: "0.1.0", revision: "test"), now: time(1_700_000_001))

    @Test("watching: devices and policy in reply, reported as changed only when the devices or what is wanted of them change")
    func watching() {
        var session = ClientSession()
        var step = session.handle(.success(.watch(["enable": .bool(true), "json": .bool(true)])), server: Self.server)
        #expect(step.replies.map { $0.line }.first?.hasPrefix("{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/ttyACM0\"") == true)
        #expect(step.replies.last == .watch(session.policy))
        #expect(step.watchChanged)
        #expect(session.watchedPaths(among: Self.devices) == ["/dev/ttyACM0", "/dev/ttyUSB0"])
        step = session.handle(.success(.watch(["enable": .bool(true)])), server: Self.server)
        #expect(!step.watchChanged)
        step = session.handle(.success(.watch(["nmea": .bool(true)])), server: Self.server)
        #expect(step.watchChanged, "what it wants of the devices changed")
        step = session.handle(.success(.watch(["nmea": .bool(false)])), server: Self.server)
        #expect(step.watchChanged)
        step = session.handle(.success(.watch(["device": .string("/dev/ttyUSB0")])), server: Self.server)
        #expect(step.watchChanged && session.watchedPaths(among: Self.devices) == ["/dev/ttyUSB0"])
        step = session.handle(.success(.watch(["device": .string("/dev/nothing")])), server: Self.server)
        #expect(step.replies == [.error("No such device as /dev/nothing")] && !step.watchChanged)
        #expect(session.watchedPaths(among: Self.devices) == ["/dev/ttyUSB0"], "an error changes nothing")
        step = session.handle(.success(.watch(["enable": .bool(false)])), server: Self.server)
        #expect(step.watchChanged && session.watchedPaths(among: Self.devices).isEmpty)
    }

    @Test("?DEVICE reports; any setting is refused, since nmeastream never writes to a receiver")
    func deviceRequests() {
        var session = ClientSession()
        #expect(session.handle(.success(.device(nil)), server: Self.server).replies
            == [.error("No path specified in DEVICE, but multiple devices are attached.")])
        #expect(session.handle(.success(.device(["path": .string("/dev/ttyACM0")])), server: Self.server).replies
            == [.device(Self.devices[0])])
        #expect(session.handle(.success(.device(["path": .string("/dev/ttyACM0"), "bps": .number(4800)])), server: Self.server).replies
            == [.error("Device settings refused: nmeastream does not write to receivers")])
    }

    @Test("replies: class first, no null, CR LF; TPV and SKY tagged with the device")
    func lines() {
        #expect(ServerReply.version(VersionInfo(release: "0.1.0", revision: "abc")).line
            == "{\"class\":\"VERSION\",\"release\":\"0.1.0\",\"rev\":\"abc\",\"proto_major\":3,\"proto_minor\":14}\r\n")
        #expect(ServerReply.watch(WatchPolicy()).line
            == "{\"class\":\"WATCH\",\"enable\":false,\"json\":false,\"nmea\":false,\"raw\":0,\"scaled\":false,\"timing\":false,\"split24\":false,\"pps\":false}\r\n")
        #expect(ServerReply.deviceGone(path: "/dev/ttyACM0").line == "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyACM0\",\"activated\":0}\r\n")
        #expect(ServerReply.error("Unrecognized request '?FOO'").line == "{\"class\":\"ERROR\",\"message\":\"Unrecognized request '?FOO'\"}\r\n")
        #expect(ServerReply.device(Self.devices[0]).line
            == "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyACM0\",\"driver\":\"NMEA0183\",\"activated\":\"2023-11-14T22:13:20.000Z\",\"flags\":1,\"native\":0,\"bps\":9600,\"parity\":\"N\",\"stopbits\":1}\r\n")
        var fix = Fix()
        fix.mode = .threeD
        fix.latitude = 48.1
        fix.longitude = 11.5
        var session = ClientSession()
        _ = session.handle(.success(.watch(["json": .bool(true)])), server: Self.server)
        var server = Self.server
        var latest = LatestReports()
        latest.take(Epoch(sky: nil, fix: fix))
        server.latest["/dev/ttyACM0"] = latest
        let poll = session.handle(.success(.poll), server: server).replies.first?.line ?? ""
        #expect(poll == "{\"class\":\"POLL\",\"time\":\"2023-11-14T22:13:21.000Z\",\"active\":1,\"tpv\":[{\"class\":\"TPV\",\"device\":\"/dev/ttyACM0\",\"mode\":3,\"lat\":48.100000000,\"lon\":11.500000000}],\"sky\":[]}\r\n")
    }
}
