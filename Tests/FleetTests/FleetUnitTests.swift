import Foundation
import Testing
import NMEAStream
@testable import Fleet

@Suite("Fleet: broker URLs and the message queue")
struct FleetUnitTests {
    @Test("a report's members: a TPV's fix read from it; a member of the wrong type reads as absent, the rest kept")
    func reportMembers() throws {
        let json = #"{"class":"TPV","device":"van7","time":"2024-06-05T12:30:04.250Z","mode":3,"lat":52.5,"lon":"4.3","altMSL":12,"speed":2.5,"track":null}"#
        let report = try JSONDecoder().decode(ReportObject.self, from: Data(json.utf8))
        #expect(report.reportClass == "TPV" && report.device == "van7")
        #expect(report.fix.mode == .threeD)
        #expect(report.fix.time?.description == "2024-06-05T12:30:04.250Z")
        #expect(report.fix.latitude == 52.5 && report.fix.longitude == nil)
        #expect(report.fix.altitudeMSL == 12 && report.fix.speed == 2.5 && report.fix.track == nil)
        let sky = try JSONDecoder().decode(ReportObject.self, from: Data(#"{"class":"SKY","satellites":[]}"#.utf8))
        #expect(sky.reportClass == "SKY" && sky.device == nil && sky.time == nil && sky.fix.mode == .unknown)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(ReportObject.self, from: Data("[1,2]".utf8)) }
    }

    @Test("broker URLs: scheme, credentials, host, port, topic; TLS's default port")
    func urls() throws {
        let url = try MQTTURL("mqtt://van:s%40cret@broker.example:1884/fleet/eu")
        #expect(!url.isTLS && url.host == "broker.example" && url.port == 1884 && url.topic == "fleet/eu")
        #expect(url.user == "van" && url.password == "s@cret")
        #expect(url.description == "mqtt://van:***@broker.example:1884/fleet/eu", "no password in messages")
        let tls = try MQTTURL("mqtts://[::1]/fleet/+/tpv")
        #expect(tls.isTLS && tls.host == "::1" && tls.port == 8883 && tls.hasWildcards)
        #expect(try MQTTURL("mqtt://localhost/t").port == 1883)
    }

    @Test("a bad URL says what is wrong: scheme, host, port, topic")
    func badURLs() {
        #expect(throws: MQTTURL.ParseError.scheme("http")) { try MQTTURL("http://broker/fleet") }
        #expect(throws: MQTTURL.ParseError.scheme("")) { try MQTTURL("broker/fleet") }
        #expect(throws: MQTTURL.ParseError.host) { try MQTTURL("mqtt:///fleet") }
        #expect(throws: MQTTURL.ParseError.port("99999")) { try MQTTURL("mqtt://broker:99999/fleet") }
        #expect(throws: MQTTURL.ParseError.port("x")) { try MQTTURL("mqtt://broker:x/fleet") }
        #expect(throws: MQTTURL.ParseError.self) { try MQTTURL("mqtt://broker") }
        #expect(throws: MQTTURL.ParseError.self) { try MQTTURL("mqtt://broker/") }
    }

    @Test("the queue: oldest first, bounded in bytes with the oldest dropped and counted; on disk it survives a restart")
    func queue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var queue = try MessageQueue(folder: folder, capacity: 300)
        for index in 0..<5 { queue.append(topic: "fleet/van/tpv", payload: Array(repeating: UInt8(index), count: 80), retain: index % 2 == 0) }
        // 97 bytes each: three fit in 300.
        #expect(queue.messages.map { $0.payload[0] } == [2, 3, 4])
        #expect(queue.dropped == 2)
        queue.remove(queue.messages[0].sequence)
        let reopened = try MessageQueue(folder: folder, capacity: 300)
        #expect(reopened.messages.map { $0.payload[0] } == [3, 4], "what waited, in order, after a restart")
        #expect(reopened.messages.map(\.retain) == [false, true])
        #expect(reopened.messages.first?.topic == "fleet/van/tpv")
        #expect(reopened.dropped == 2, "the count of dropped messages survives too")
        var next = reopened
        next.append(topic: "t", payload: [9], retain: false)
        #expect(next.messages.last!.sequence > reopened.messages.last!.sequence, "sequence numbers go on")
        var memory = try MessageQueue(folder: nil, capacity: 100)
        memory.append(topic: "t", payload: Array(repeating: 0, count: 500), retain: false)
        #expect(memory.messages.count == 1, "one message larger than the bound is kept, alone")
    }
}
