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

    @Test("hostile members read as absent, never trap: absurd hours, seconds of 1e300 or nan, positions past the poles",
          arguments: [
              #"{"class":"TPV","time":"T99999999999999999:00:00Z","mode":3,"lat":1,"lon":2}"#,
              #"{"class":"TPV","time":"2024-06-05T99999999999999999:00:00Z","mode":3}"#,
              #"{"class":"TPV","time":"2024-06-05T12:30:1e300Z","mode":3}"#,
              #"{"class":"TPV","time":"2024-06-05T12:30:nanZ","mode":3}"#,
              #"{"class":"TPV","time":"2024-06-05T24:00:00Z","mode":3}"#,
              #"{"class":"TPV","time":"2024-02-30T12:00:00Z","mode":3}"#,
              #"{"class":"TPV","time":"-999999999999-06-05T12:00:00Z","mode":3}"#,
              #"{"class":"TPV","time":"2024-06-05T12:30:04.1234567891Z","mode":3}"#,
              #"{"class":"TPV","time":"2024-06-05T12:30:04.Z","mode":99999999999999999999}"#,
          ])
    func hostileMembers(_ json: String) throws {
        let report = try JSONDecoder().decode(ReportObject.self, from: Data(json.utf8))
        #expect(report.reportClass == "TPV")
        #expect(report.fix.time == nil, "\(json)")
    }

    @Test("values no receiver gives read as absent; the edges of the possible are kept")
    func physicalRanges() throws {
        let wild = #"{"class":"TPV","lat":1e300,"lon":-181,"altMSL":1e300,"speed":-1,"track":400,"climb":1e308,"geoidSep":5e3}"#
        let report = try JSONDecoder().decode(ReportObject.self, from: Data(wild.utf8))
        #expect(report.fix.latitude == nil && report.fix.longitude == nil && report.fix.altitudeMSL == nil)
        #expect(report.fix.speed == nil && report.fix.track == nil && report.fix.climb == nil && report.fix.geoidSeparation == nil)
        let edges = #"{"class":"TPV","time":"2016-12-31T23:59:60.5Z","lat":-90,"lon":180,"speed":0,"track":360}"#
        let kept = try JSONDecoder().decode(ReportObject.self, from: Data(edges.utf8))
        #expect(kept.fix.latitude == -90 && kept.fix.longitude == 180 && kept.fix.speed == 0 && kept.fix.track == 360)
        #expect(kept.fix.time?.description == "2016-12-31T23:59:60.500Z", "a leap second is a time")
    }

    @Test("the vehicle is the topic's: a report naming another is refused, one naming none takes the topic's")
    func vehicleFromTopic() {
        var filter = FleetReportFilter()
        let own = Array(#"{"class":"TPV","device":"van7","time":"2024-06-05T12:30:04.000Z","mode":3}"#.utf8)
        guard case .deliver(let report) = filter.take(topic: "fleet/van7/tpv", payload: own) else {
            Issue.record("its own report refused")
            return
        }
        #expect(report.vehicle == "van7")
        guard case .malformed = filter.take(topic: "fleet/van8/tpv", payload: own) else {
            Issue.record("van8 spoke for van7")
            return
        }
        let anonymous = Array(#"{"class":"TPV","time":"2024-06-05T12:30:04.000Z","mode":3}"#.utf8)
        guard case .deliver(let named) = filter.take(topic: "fleet/van9/tpv", payload: anonymous) else {
            Issue.record("a report without a device refused")
            return
        }
        #expect(named.vehicle == "van9")
        guard case .repeated = filter.take(topic: "fleet/van9/tpv", payload: anonymous) else {
            Issue.record("a repeat delivered")
            return
        }
        // A raw control byte is no JSON, and would reach the terminal as it is.
        let forged = Array(#"{"class":"TPV","device":"a"#.utf8) + [0x0A] + Array(#"b","mode":3}"#.utf8)
        guard case .malformed = filter.take(topic: "fleet/a\nb/tpv", payload: forged) else {
            Issue.record("a payload with a line feed taken")
            return
        }
        let long = String(repeating: "x", count: FleetReportFilter.maximumNameLength + 1)
        guard case .malformed = filter.take(topic: "fleet/\(long)/tpv", payload: anonymous) else {
            Issue.record("a name past the bound taken")
            return
        }
    }

    @Test("the table of vehicles is bounded: past it the one heard from longest ago is forgotten")
    func vehicleTableBound() {
        var filter = FleetReportFilter()
        let payload = Array(#"{"class":"TPV","time":"2024-06-05T12:30:04.000Z","mode":3}"#.utf8)
        let decoder = JSONDecoder()
        for index in 0...FleetReportFilter.maximumVehicles {
            _ = filter.take(topic: "fleet/v\(index)/tpv", payload: payload, decoder: decoder)
            // v0 stays fresh: the one forgotten is v1.
            if index % 1000 == 0 { _ = filter.take(topic: "fleet/v0/tpv", payload: payload, decoder: decoder) }
        }
        #expect(filter.vehicleCount == FleetReportFilter.maximumVehicles)
        #expect(filter.vehiclesForgotten == 1)
        guard case .repeated = filter.take(topic: "fleet/v0/tpv", payload: payload, decoder: decoder) else {
            Issue.record("v0, heard from lately, was forgotten")
            return
        }
        guard case .deliver = filter.take(topic: "fleet/v1/tpv", payload: payload, decoder: decoder) else {
            Issue.record("v1 was not the one forgotten")
            return
        }
    }

    @Test("names printed from outside: controls, separators and bidi overrides escaped in text, CSV and GPX")
    func printableNames() {
        #expect(printable("van7") == "van7")
        #expect(printable("a\u{1B}[2Jb") == #"a\u{1B}[2Jb"#)
        #expect(printable("a\nb\r") == #"a\u{A}b\u{D}"#)
        #expect(printable("x\u{202E}y") == #"x\u{202E}y"#)
        #expect(printable(#"a\u{1B}"#) == #"a\\u{1B}"#, "a backslash cannot forge an escape")
        #expect(CSV.cell("a,b\n") == #""a,b\u{A}""#)
        #expect(CSV.cell("say \"hi\"") == #""say ""hi""""#)
        var fix = Fix()
        fix.mode = .threeD
        fix.latitude = 1
        fix.longitude = 2
        let point = GPX.point(fix, name: "<v>\u{07}&") ?? ""
        #expect(point.contains("<name>&lt;v&gt;\\u{7}&amp;</name>"))
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
