import Foundation
import Testing
import NMEAStream
import TestSupport
@testable import Fleet

@Suite("Fleet: broker URLs and the message queue", .mayBlock)
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

    @Test("a report's corrections: gpsd's status as what made the fix (RTK fixed, float, DGPS), their age and station; nonsense read as absent")
    func reportCorrections() throws {
        let fixed = try JSONDecoder().decode(ReportObject.self, from: Data(#"{"class":"TPV","mode":3,"status":3,"dgpsAge":0.8,"dgpsSta":42}"#.utf8))
        #expect(fixed.fix.solutionLabel == "rtk-fixed" && fixed.fix.gpsdStatus == 3)
        #expect(fixed.fix.differentialAge == 0.8 && fixed.fix.differentialStation == 42)
        let float = try JSONDecoder().decode(ReportObject.self, from: Data(#"{"class":"TPV","mode":3,"status":4}"#.utf8))
        #expect(float.fix.solutionLabel == "rtk-float" && float.fix.gpsdStatus == 4)
        let plain = try JSONDecoder().decode(ReportObject.self, from: Data(#"{"class":"TPV","mode":3}"#.utf8))
        #expect(plain.fix.solutionLabel == nil && plain.fix.quality == nil)
        let odd = try JSONDecoder().decode(ReportObject.self, from: Data(#"{"class":"TPV","mode":3,"status":99,"dgpsAge":-1,"dgpsSta":1e9}"#.utf8))
        #expect(odd.fix.quality == nil && odd.fix.differentialAge == nil && odd.fix.differentialStation == nil)
    }

    @Test("Home Assistant: the object ID keeps letters, digits, _ and -; the configuration and the attributes as its MQTT device tracker reads them")
    func homeAssistant() throws {
        #expect(HomeAssistantDiscovery.objectID(for: "van-7 Ünit/2").hasPrefix("nmeastream_van-7__nit_2__"))
        #expect(HomeAssistantDiscovery.objectID(for: "van-7") == "nmeastream_van-7", "a clean name is kept as it is")
        // Distinct names, distinct IDs: replaced characters, non-ASCII names of one length, a
        // clean name that looks like a hashed one.
        let names = ["van 7", "van_7", "van.7", "van/7", "ß", "é", "日本", "中国", "van_7__0123456789abcdef",
                     HomeAssistantDiscovery.objectID(for: "van 7").dropFirst("nmeastream_".count).description]
        #expect(Set(names.map(HomeAssistantDiscovery.objectID(for:))).count == names.count, "\(names.map(HomeAssistantDiscovery.objectID(for:)))")
        let discovery = HomeAssistantDiscovery(prefix: "ha")
        let van7 = HomeAssistantDiscovery.objectID(for: "van 7")
        #expect(van7.hasPrefix("nmeastream_van_7__") && van7.count == "nmeastream_van_7__".count + 16)
        #expect(discovery.configurationTopic(name: "van 7") == "ha/device_tracker/\(van7)/config")
        let configuration = String(decoding: discovery.configuration(name: "van \"7\"", attributesTopic: "fleet/van/home-assistant", version: "1.2"), as: UTF8.self)
        let id = HomeAssistantDiscovery.objectID(for: "van \"7\"")
        #expect(configuration == #"{"name":"van \"7\"","unique_id":""# + id + #"","object_id":""# + id + #"","source_type":"gps","json_attributes_topic":"fleet/van/home-assistant","device":{"identifiers":[""# + id + #""],"name":"van \"7\"","manufacturer":"nmeastream","model":"GNSS receiver","sw_version":"1.2"}}"#)
        var fix = Fix()
        fix.mode = .threeD
        fix.latitude = 52.5
        fix.longitude = 4.25
        #expect(HomeAssistantDiscovery.attributes(fix).map { String(decoding: $0, as: UTF8.self) } == #"{"latitude":52.500000000,"longitude":4.250000000}"#,
                "no estimate: no accuracy made up")
        fix.errorEstimates.horizontal = 12.34
        fix.speed = 1.5
        let attributes = try #require(HomeAssistantDiscovery.attributes(fix).map { String(decoding: $0, as: UTF8.self) })
        #expect(attributes == #"{"latitude":52.500000000,"longitude":4.250000000,"gps_accuracy":12.3,"speed":1.50}"#, "\(attributes)")
        fix.latitude = nil
        #expect(HomeAssistantDiscovery.attributes(fix) == nil, "no position: nothing to place")
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
        // Levels split at the byte `/` as the broker does, even before a combining mark (found
        // by the report fuzzer: split as characters, the name took in `fleet/`).
        guard case .deliver(let marked) = filter.take(topic: "fleet/\u{611}van/tpv", payload: anonymous) else {
            Issue.record("a name starting with a combining mark refused")
            return
        }
        #expect(marked.vehicle == "\u{611}van")
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
        // A report padded past the bound (printed as received, it would be a line as long).
        let padding = String(repeating: " ", count: FleetReportFilter.maximumReportLength)
        let padded = Array(#"{"class":"TPV","time":"2024-06-05T12:30:05.000Z","mode":3,"x":""#.utf8) + Array(padding.utf8) + Array(#""}"#.utf8)
        guard case .malformed = filter.take(topic: "fleet/van9/tpv", payload: padded) else {
            Issue.record("a report past the bound taken")
            return
        }
        // Nested ten thousand deep: refused, and no stack is blown.
        let nested = Array((#"{"class":"TPV","x":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}").utf8)
        guard case .malformed = filter.take(topic: "fleet/van9/tpv", payload: nested) else {
            Issue.record("a report nested ten thousand deep taken")
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
        // Brackets that do not close, or close twice; control characters anywhere.
        for bad in ["mqtt://[::1/fleet", "mqtt://[::1]]/fleet", "mqtt://::1/fleet", "mqtt://bro\nker/fleet", "mqtt://broker/fle\u{1B}et",
                    "mqtt://broker/fleet\r\nPUBLISH"] {
            #expect(throws: MQTTURL.ParseError.self, "\(bad)") { try MQTTURL(bad) }
        }
        #expect(throws: MQTTURL.ParseError.self) { try MQTTURL("mqtt://broker/") }
    }

    @Test("the queue: oldest first, bounded in bytes with the oldest dropped and counted; on disk it survives a restart")
    func queue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var queue = try MessageQueue(folder: folder, capacity: 300)
        for index in 0..<5 {
            #expect(queue.append([.init(topic: "fleet/van/tpv", payload: Array(repeating: UInt8(index), count: 80), retain: index % 2 == 0)]) == nil)
        }
        // 97 bytes each: three fit in 300.
        #expect(queue.messages.map { $0.payload[0] } == [2, 3, 4])
        #expect(queue.dropped == 2 && queue.unstored == 0)
        queue.remove(queue.messages[0].sequence)
        // Another process reading the database sees what is committed, and nothing else.
        queue.flush()
        let reopened = try MessageQueue(folder: folder, capacity: 300)
        #expect(reopened.messages.map { $0.payload[0] } == [3, 4], "what waited, in order, after a restart")
        #expect(reopened.messages.map(\.retain) == [false, true])
        #expect(reopened.messages.first?.topic == "fleet/van/tpv")
        #expect(reopened.dropped == 2, "the count of dropped messages survives too")
        var next = reopened
        _ = next.append([.init(topic: "t", payload: [9], retain: false)])
        #expect(next.messages.last!.sequence > reopened.messages.last!.sequence, "sequence numbers go on")
        // A smaller bound at the next start: the oldest go, counted.
        let smaller = try MessageQueue(folder: folder, capacity: 100)
        #expect(smaller.messages.map { $0.payload[0] } == [9] && smaller.dropped == 4)
        var memory = try MessageQueue(folder: nil, capacity: 100)
        _ = memory.append([.init(topic: "t", payload: Array(repeating: 0, count: 500), retain: false)])
        #expect(memory.messages.count == 1, "one message larger than the bound is kept, alone")
    }

    @Test("a damaged queue never traps: rows that cannot be sent are moved aside and counted, sequences out of range numbered again, counters clamped; the rest is sent in order")
    func damagedQueue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try MessageQueue(folder: folder, capacity: 1 << 30)
        let store = try SQLiteDatabase(path: folder + "/" + MessageQueue.fileName)
        try store.execute("""
            INSERT INTO messages VALUES (-7, 'fleet/van/tpv', x'01', 1);
            INSERT INTO messages VALUES (5, 'fleet/+/tpv', x'02', 0);
            INSERT INTO messages VALUES (6, '', x'03', 0);
            INSERT INTO messages VALUES (7, 'fleet/#', x'04', 0);
            INSERT INTO messages VALUES (8, 'fleet/van/sky', 'text, not bytes', 0);
            INSERT INTO messages VALUES (9, 'fleet/van/sky', zeroblob(2097152), 0);
            INSERT INTO messages VALUES (10, 'fleet/van/sky', x'05', 5);
            INSERT INTO messages VALUES (11, 'fleet/van/sky', x'06', 0);
            INSERT INTO messages VALUES (9223372036854775807, 'fleet/van/gst', x'07', 0);
            INSERT OR REPLACE INTO counters VALUES ('dropped', 9223372036854775807);
            """)
        var queue = try MessageQueue(folder: folder, capacity: 1 << 30)
        #expect(queue.movedAside == 6)
        #expect(queue.messages.map(\.payload) == [[1], [6], [7]], "the rest, in their order")
        #expect(queue.messages.map(\.sequence) == [1, 2, 3], "numbered again from 1")
        #expect(queue.dropped == MessageQueue.largestCount)
        // Adding and dropping past the clamp: no overflow.
        _ = queue.append([.init(topic: "fleet/van/tpv", payload: [8], retain: true)])
        #expect(queue.messages.last?.sequence == 4 && queue.unstored == 0)
        var rejected = 0, sizes: [Int64] = []
        try store.run("SELECT count(*) FROM rejected") { rejected = Int($0.integer(0)) }
        try store.run("SELECT size FROM rejected WHERE payload IS NULL") { sizes.append($0.integer(0)) }
        #expect(rejected == 6 && sizes == [2_097_152], "moved aside, the oversized one without its bytes")
        // Read again: nothing more to move, the same messages.
        let again = try MessageQueue(folder: folder, capacity: 1 << 30)
        #expect(again.movedAside == 0 && again.messages.map(\.payload) == [[1], [6], [7], [8]])
        try store.execute("UPDATE counters SET value = -5 WHERE name = 'dropped'")
        #expect(try MessageQueue(folder: folder, capacity: 1 << 30).dropped == 0)
    }

    @Test("random rows of any type in a queue of a foreign schema: no trap; every row either loaded as a message that can be sent, or moved aside", arguments: 1...8)
    func randomRows(seed: UInt64) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try MessageQueue(folder: folder, capacity: 1 << 30)
        let store = try SQLiteDatabase(path: folder + "/" + MessageQueue.fileName)
        // No constraints: a database written by something else.
        try store.execute("DROP TABLE messages; CREATE TABLE messages (sequence INTEGER PRIMARY KEY, topic, payload, retain)")
        var random = SeededGenerator(seed: seed)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let sequences = ["-9223372036854775808", "-1", "0", "1", "9223372036854775807", "4611686018427387904"]
        let topics = ["'fleet/van/tpv'", "''", "'fleet/+/tpv'", "'#'", "NULL", "x'00'", "'a' || char(0) || 'b'", "42", "3.5",
                      "x'666c656574'", "'" + String(repeating: "t", count: 70_000) + "'", "'fleet/日本/tpv'"]
        let payloads = ["x'7b7d'", "''", "'text'", "NULL", "7", "zeroblob(1048577)", "zeroblob(1048576)", "x''", "-1.5"]
        let retains = ["0", "1", "2", "-1", "NULL", "'1'", "0.5"]
        var rows = 0
        for index in 0..<300 {
            let sequence = random.next() % 4 == 0 ? pick(sequences) : "\(index * 3 + 7)"
            try store.execute("INSERT OR REPLACE INTO messages VALUES (\(sequence), \(pick(topics)), \(pick(payloads)), \(pick(retains)))")
        }
        try store.run("SELECT count(*) FROM messages") { rows = Int($0.integer(0)) }
        let queue = try MessageQueue(folder: folder, capacity: 1 << 30)
        #expect(queue.messages.count + queue.movedAside == rows)
        for message in queue.messages {
            #expect(!message.topic.isEmpty && !message.topic.contains("+") && !message.topic.contains("#") && !message.topic.contains("\u{0}"))
            #expect(message.payload.count <= MessageQueue.maximumPayload)
            #expect(message.sequence >= 1 && message.sequence <= UInt64(MessageQueue.largestSequence))
        }
        #expect(queue.messages.map(\.sequence) == queue.messages.map(\.sequence).sorted())
        var next = queue
        _ = next.append([.init(topic: "fleet/van/tpv", payload: [1], retain: true)])
        #expect(next.unstored == 0)
    }

    @Test("a queue another process holds locked: refused as busy at start; a write meanwhile fails, keeps its messages in memory, and the next one after the lock stores them")
    func lockedQueue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var queue = try MessageQueue(folder: folder, capacity: 1 << 20)
        let other = try SQLiteDatabase(path: folder + "/" + MessageQueue.fileName)
        try other.execute("BEGIN EXCLUSIVE")
        guard case .failed = queue.append([.init(topic: "fleet/van/tpv", payload: [1], retain: true)]) else {
            Issue.record("a write under another's lock did not fail")
            return
        }
        #expect(queue.unstored == 1 && queue.messages.count == 1)
        do throws(QueueError) {
            _ = try MessageQueue(folder: folder, capacity: 1 << 20)
            Issue.record("opened under another's lock")
        } catch {
            guard case .busy = error.reason else {
                Issue.record("not busy: \(error)")
                return
            }
            #expect(error.description.contains("another process holds its database locked"))
        }
        try other.execute("COMMIT")
        #expect(queue.append([]) == .recovered)
        #expect(queue.unstored == 0)
    }

    @Test("a queue folder that cannot hold the queue is an error at start: missing parent, a file, not writable, not a queue")
    func queueFolderRefused() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer {
            chmod(base + "/locked", 0o700)
            try? FileManager.default.removeItem(atPath: base)
        }
        /// Why the queue was refused in `folder`, or `nil` when it was not.
        func refusal(_ folder: String) -> QueueError.Reason? {
            do throws(QueueError) {
                _ = try MessageQueue(folder: folder, capacity: 1000)
                return nil
            } catch {
                return error.reason
            }
        }
        guard case .folder(.noSuchFile) = refusal(base + "/missing/queue") else {
            Issue.record("a missing parent: \(String(describing: refusal(base + "/missing/queue")))")
            return
        }
        _ = FileManager.default.createFile(atPath: base + "/file", contents: Data("x".utf8))
        guard case .notAFolder = refusal(base + "/file") else {
            Issue.record("a file: \(String(describing: refusal(base + "/file")))")
            return
        }
        try FileManager.default.createDirectory(atPath: base + "/garbage", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: base + "/garbage/" + MessageQueue.fileName, contents: Data(repeating: 0x41, count: 4096))
        // Not a database: SQLite's own check, no system error.
        guard case .store(_, nil) = refusal(base + "/garbage") else {
            Issue.record("not a queue: \(String(describing: refusal(base + "/garbage")))")
            return
        }
        // Root writes anywhere: a folder without write permission refuses only others.
        if getuid() != 0 {
            try FileManager.default.createDirectory(atPath: base + "/locked", withIntermediateDirectories: true)
            chmod(base + "/locked", 0o500)
            #expect(throws: QueueError.self) { try MessageQueue(folder: base + "/locked", capacity: 1000) }
        }
        // A database that exists and can only be read (root too: the file's mode is kept by SQLite).
        let readOnly = base + "/read-only"
        _ = try MessageQueue(folder: readOnly, capacity: 1000)
        chmod(readOnly + "/" + MessageQueue.fileName, 0o400)
        if getuid() != 0 {
            #expect(throws: QueueError.self) { try MessageQueue(folder: readOnly, capacity: 1000) }
        }
    }
}

extension FleetUnitTests {
    @Test("a full disk: the write fails and says so once, the messages wait in memory, and the next write that succeeds stores them all; a read-only one refuses at start")
    func queueOnFullDisk() throws {
        guard let disk = SmallFilesystem(kilobytes: 256) else {
            print("skipped: mounting a small tmpfs needs root")
            return
        }
        let folder = disk.path + "/queue"
        // In a scope of its own: the database is closed before the remount below.
        do {
            var queue = try MessageQueue(folder: folder, capacity: 1 << 20)
            let message = { (index: Int) in MessageQueue.Outgoing(topic: "fleet/van/tpv", payload: Array(repeating: UInt8(index), count: 1000), retain: false) }
            #expect(queue.append([message(0)]) == nil)
            disk.fill()
            var changes: [MessageQueue.StorageChange] = []
            for index in 1...20 { if let change = queue.append([message(index)]) { changes.append(change) } }
            #expect(changes.count == 1, "said once, not per message: \(changes)")
            if case .failed(let reason)? = changes.first { #expect(reason.contains("full"), "\(reason)") } else { Issue.record("no failure said") }
            #expect(queue.unstored >= 1 && queue.messages.count == 21)
            disk.free()
            #expect(queue.append([message(21)]) == .recovered)
            #expect(queue.unstored == 0)
            let reopened = try MessageQueue(folder: folder, capacity: 1 << 20)
            #expect(reopened.messages.map { Int($0.payload[0]) } == Array(0...21), "every message on the disk, in order")
        }
        // Read-only storage: refused at start, not found out later.
        #expect(disk.setReadOnly(true))
        #expect(throws: QueueError.self) { try MessageQueue(folder: folder, capacity: 1 << 20) }
        #expect(throws: QueueError.self) { try MessageQueue(folder: disk.path + "/other", capacity: 1 << 20) }
        disk.setReadOnly(false)
    }
}

extension FleetUnitTests {
    @Test("a queue folder of an earlier version (a file per message): its messages and count move into the database, in order, and the files go")
    func queueFilesImported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (sequence, retain, payload) in [(7, 1, "{\"b\":2}"), (3, 0, "{\"a\":1}")] {
            let topic = Array("fleet/van/tpv".utf8)
            let bytes = [UInt8(retain), 0, UInt8(topic.count)] + topic + Array(payload.utf8)
            let name = String(repeating: "0", count: 19) + "\(sequence).msg"
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
        }
        _ = FileManager.default.createFile(atPath: folder + "/dropped", contents: Data("5".utf8))
        var queue = try MessageQueue(folder: folder, capacity: 1000)
        #expect(queue.messages.map { String(decoding: $0.payload, as: UTF8.self) } == ["{\"a\":1}", "{\"b\":2}"])
        #expect(queue.messages.map(\.retain) == [false, true] && queue.messages.allSatisfy { $0.topic == "fleet/van/tpv" })
        #expect(queue.dropped == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { $0.hasPrefix(MessageQueue.fileName) })
        _ = queue.append([.init(topic: "t", payload: [1], retain: false)])
        #expect(queue.messages.last?.sequence == 8, "sequence numbers go on after the imported ones")
    }
}
