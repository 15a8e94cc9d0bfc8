#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `publish` and `subscribe` against a real broker (Debian `mosquitto`, on a loopback port,
/// with its own configuration, persistence and log).
@Suite("Fleets over MQTT", .mayBlock, .serialized)
struct FleetCommandTests {
    static var hasBroker: Bool { MosquittoBroker.isInstalled }
    typealias Broker = MosquittoBroker

    /// The messages in the queue database of `folder` and their bytes (topic, payload and 4
    /// each, as the bound counts them), read by another program (Python's sqlite3) as anyone
    /// could; zero when there is none.
    static func queued(in folder: String) -> (count: Int, bytes: Int) {
        let script = "import sqlite3,sys\nc=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro',uri=True)\n"
            + "print(*c.execute('select count(*),coalesce(sum(length(cast(topic as blob))+length(payload)+4),0) from messages').fetchone())"
        guard FileManager.default.fileExists(atPath: folder + "/queue.sqlite3") else { return (0, 0) }
        let result = folder + ".count-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: result) }
        guard let reader = try? ChildProcess("/usr/bin/python3", ["-c", script, folder + "/queue.sqlite3"], outputPath: result),
              reader.waitForExit() == 0, let output = try? String(contentsOfFile: result, encoding: .utf8) else { return (0, 0) }
        let numbers = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : (0, 0)
    }

    /// A log for the end-to-end test: a corpus log when `../shared` is there, else a fixture.
    static var log: String {
        let corpus = Command.sharedCorpus.appendingPathComponent("gpsd-nmea/ac12.log").path
        return FileManager.default.fileExists(atPath: corpus) ? corpus : Command.fixture("sirf-cycle.nmea")
    }

    /// `replay --format json`'s TPV lines for `log`, tagged with `name` as the publisher tags them.
    static func expectedTPV(_ log: String, name: String) throws -> [String] {
        let replay = try Command.run(["replay", "--format", "json", log])
        return replay.outputLines.filter { $0.hasPrefix("{\"class\":\"TPV\",") }
            .map { $0.replacingOccurrences(of: "{\"class\":\"TPV\",", with: "{\"class\":\"TPV\",\"device\":\"\(name)\",") }
    }

    /// Starts `subscribe` with a persistent session (`--id`), its JSON to a file, and waits
    /// until the broker has its subscription.
    static func subscribe(_ broker: Broker, id: String, count: Int, output: String) throws -> ChildProcess {
        let subscriber = try ChildProcess(Command.executable.path, ["subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet", "--format", "json",
                                                                    "--id", id, "--count", String(count)],
                                          outputPath: output, errorPath: output + ".err")
        #expect(waitForChanges(to: broker.folder) { broker.log.contains("Received SUBSCRIBE from \(id)") }, "the broker has the subscription")
        return subscriber
    }

    @Test("publish --log while subscribe listens: every epoch arrives, in order, equal to replay --format json",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func endToEnd() throws {
        let broker = try Broker()
        let expected = try Self.expectedTPV(Self.log, name: "van1")
        try #require(!expected.isEmpty)
        let output = broker.folder + "/received"
        let subscriber = try Self.subscribe(broker, id: "e2e", count: expected.count, output: output)
        let published = try Command.run(["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", Self.log, "--id", "van1"])
        #expect(published.status == 0, "\(published.error)")
        #expect(subscriber.exits(within: 20), "the subscriber got its \(expected.count) fixes")
        if subscriber.isRunning { subscriber.terminate() }
        #expect(subscriber.waitForExit() == 0)
        let received = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(received == expected)
        #expect(published.error.contains("acknowledged by the broker"), "\(published.error)")
    }

    @Test("publish --home-assistant: the retained discovery configuration of a GPS device_tracker, and each fix's latitude, longitude and gps_accuracy on its attributes topic",
          .enabled(if: hasBroker && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub"), "mosquitto or mosquitto-clients is not installed"))
    func homeAssistant() throws {
        let broker = try Broker()
        let published = try Command.run(["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", Self.log, "--id", "van 7", "--home-assistant"])
        #expect(published.status == 0, "\(published.error)")
        // What a Home Assistant that connects later reads: the retained messages.
        let output = broker.folder + "/retained"
        let reader = try ChildProcess("/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-v", "-C", "2", "-W", "10",
                                                                "-t", "homeassistant/device_tracker/+/config", "-t", "fleet/+/home-assistant"],
                                      outputPath: output)
        #expect(reader.waitForExit() == 0)
        let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        // "van 7" has a character replaced: its ID carries a hash of the name.
        let id = try #require(lines.first { $0.hasPrefix("homeassistant/device_tracker/nmeastream_van_7__") }?
            .split(separator: "/")[2]).description
        #expect(id.count == "nmeastream_van_7__".count + 16, "\(id)")
        let config = try #require(lines.first { $0.hasPrefix("homeassistant/device_tracker/\(id)/config ") }, "\(lines)")
        let configuration = try #require(try JSONSerialization.jsonObject(with: Data(config.drop { $0 != " " }.dropFirst().utf8)) as? [String: Any])
        // Home Assistant's MQTT device tracker: a GPS source, a unique ID (with which the
        // device registry takes its device), the attributes' topic, the device's identifiers.
        #expect(configuration["name"] as? String == "van 7" && configuration["unique_id"] as? String == id)
        #expect(configuration["source_type"] as? String == "gps")
        #expect(configuration["json_attributes_topic"] as? String == "fleet/van 7/home-assistant")
        let device = try #require(configuration["device"] as? [String: Any])
        #expect(device["identifiers"] as? [String] == [id] && device["manufacturer"] as? String == "nmeastream")
        let position = try #require(lines.first { $0.hasPrefix("fleet/van 7/home-assistant ") }, "\(lines)")
        let attributes = try #require(try JSONSerialization.jsonObject(with: Data(position.dropFirst("fleet/van 7/home-assistant ".count).utf8)) as? [String: Any])
        // The log's last fix.
        let last = try #require(Self.expectedTPV(Self.log, name: "van 7").last)
        let tpv = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(attributes["latitude"] as? Double == tpv["lat"] as? Double && attributes["longitude"] as? Double == tpv["lon"] as? Double, "\(attributes) \(tpv)")
        #expect((attributes["gps_accuracy"] as? Double).map { $0 > 0 } == true, "\(attributes)")
    }

    @Test("broker down at start, killed and restarted mid-run, publisher killed and restarted: the subscriber ends with every epoch exactly once",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func faults() throws {
        let broker = try Broker()
        let log = Command.fixture("sirf-cycle.nmea")
        let expected = try Self.expectedTPV(log, name: "van2")
        let output = broker.folder + "/received"
        // The subscriber's session first, then the broker goes: the publisher starts without it.
        let subscriber = try Self.subscribe(broker, id: "dashboard", count: expected.count, output: output)
        defer { if subscriber.isRunning { subscriber.terminate(); _ = subscriber.waitForExit() } }
        broker.kill()
        let queue = broker.folder + "/queue"
        let arguments = [Command.executable.path, "publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", log, "--speed", "4",
                         "--id", "van2", "--queue", queue]
        var publisher = try ChildProcess(arguments[0], Array(arguments.dropFirst()), errorPath: broker.folder + "/publisher.err")
        defer { if publisher.isRunning { publisher.terminate(); _ = publisher.waitForExit() } }
        // 20 epochs a second apart at ×4: 5 s of log. With no broker, the queue fills.
        #expect(waitForChanges(to: queue) { Self.queued(in: queue).count >= 3 }, "the queue fills")
        try broker.start()
        usleep(1_200_000)
        broker.kill()
        usleep(1_000_000)
        try broker.start()
        // The publisher dies without a word and starts again, from the log's start: the queue
        // sends what waited, the repeats are dropped by the subscriber.
        kill(publisher.pid, SIGKILL)
        _ = publisher.waitForExit()
        publisher = try ChildProcess(arguments[0], Array(arguments.dropFirst()), errorPath: broker.folder + "/publisher2.err")
        #expect(subscriber.exits(within: 60), "the subscriber got its \(expected.count) fixes")
        let received = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(received.count == expected.count && Set(received) == Set(expected), "every epoch exactly once:\n\(received.joined(separator: "\n"))")
        #expect(publisher.waitForExit() == 0)
        #expect(Self.queued(in: queue).count == 0, "the queue drained")
    }

    @Test("the broker lost mid-run and back: publish and subscribe each say so when it goes and when it comes, once each way",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func brokerLostAndBack() throws {
        let broker = try Broker()
        let output = broker.folder + "/received"
        let subscriber = try Self.subscribe(broker, id: "watching", count: 1_000, output: output)
        defer { if subscriber.isRunning { subscriber.terminate(); _ = subscriber.waitForExit() } }
        // 20 epochs a second apart at real time: it is still publishing when the broker goes.
        let publisher = try ChildProcess(Command.executable.path, ["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"),
                                                                   "--speed", "1", "--id", "van4", "--queue", broker.folder + "/queue"],
                                         errorPath: broker.folder + "/publisher.err")
        defer { if publisher.isRunning { publisher.terminate(); _ = publisher.waitForExit() } }
        func said(_ file: String) -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
        let publisherSaid = { said(broker.folder + "/publisher.err") }, subscriberSaid = { said(output + ".err") }
        #expect(waitForChanges(to: broker.folder) { !said(output).isEmpty }, "a fix went through: \(publisherSaid())")
        broker.kill()
        let lost = "lost the broker at 127.0.0.1:\(broker.port)"
        #expect(waitForChanges(to: broker.folder) { publisherSaid().contains(lost) && subscriberSaid().contains(lost) },
                "publisher: \(publisherSaid()) subscriber: \(subscriberSaid())")
        #expect(publisherSaid().contains(lost + ": ") && publisherSaid().contains("the messages wait in the queue until it is back"), "\(publisherSaid())")
        try broker.start()
        #expect(waitForChanges(to: broker.folder, seconds: 40) {
            publisherSaid().contains("the broker is back; sending what waited") && subscriberSaid().contains("the broker is back; receiving again")
        }, "publisher: \(publisherSaid()) subscriber: \(subscriberSaid())")
        #expect(publisherSaid().components(separatedBy: lost).count == 2, "said once: \(publisherSaid())")
        #expect(subscriberSaid().components(separatedBy: lost).count == 2, "said once: \(subscriberSaid())")
    }

    @Test("bad input: a bad URL, wrong credentials, a TLS failure: one clear line each; a malformed message is counted and skipped",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func badInput() throws {
        let log = Command.fixture("sirf-cycle.nmea")
        for (url, words) in [("http://127.0.0.1/fleet", "mqtt:// or mqtts://"), ("mqtt://127.0.0.1:70000/fleet", "port"),
                             ("mqtt://127.0.0.1", "no topic"), ("mqtt://127.0.0.1/fleet/#", "cannot hold")] {
            let result = try Command.run(["publish", url, "--log", log])
            #expect(result.status == 64, "\(url): \(result.error)")
            #expect(result.error.contains(words), "\(url): \(result.error)")
        }
        let passwords = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-passwd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: passwords) }
        #expect(spawnAndWait("/usr/bin/mosquitto_passwd", ["-b", "-c", passwords, "van", "right"]) == 0)
        let secured = try Broker(passwordFile: passwords)
        setenv("NMEASTREAM_TEST_PASSWORD", "wrong", 1)
        let refused = try Command.run(["publish", "mqtt://van@127.0.0.1:\(secured.port)/fleet", "--password-env", "NMEASTREAM_TEST_PASSWORD", "--log", log])
        #expect(refused.status == 69, "\(refused.error)")
        #expect(refused.error.split(separator: "\n").last?.contains("refused the connection") == true, "\(refused.error)")
        setenv("NMEASTREAM_TEST_PASSWORD", "right", 1)
        let accepted = try Command.run(["publish", "mqtt://van@127.0.0.1:\(secured.port)/fleet", "--password-env", "NMEASTREAM_TEST_PASSWORD", "--log", log])
        #expect(accepted.status == 0, "\(accepted.error)")
        let tls = try Command.run(["publish", "mqtts://127.0.0.1:\(secured.port)/fleet", "--log", log])
        #expect(tls.status == 69 && tls.error.contains("TLS failed"), "\(tls.error)")

        // A message that is not a report, then a report: the first counted and skipped.
        let broker = try Broker()
        let output = broker.folder + "/received"
        let subscriber = try Self.subscribe(broker, id: "reader", count: 1, output: output)
        #expect(spawnAndWait("/usr/bin/mosquitto_pub", ["-p", String(broker.port), "-t", "fleet/x/tpv", "-q", "1", "-m", "not json"]) == 0)
        let published = try Command.run(["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", log, "--id", "van3"])
        #expect(published.status == 0)
        #expect(subscriber.exits(within: 20))
        #expect(subscriber.waitForExit() == 0)
        let said = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
        #expect(said.contains("0 repeats dropped, 1 malformed message skipped"), "\(said)")
    }

    @Test("a vehicle and a dashboard that start while the broker is down: each says so once, waits, and works when it comes",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func brokerDownAtStart() throws {
        let broker = try Broker()
        let log = Command.fixture("sirf-cycle.nmea")
        let expected = try Self.expectedTPV(log, name: "van6")
        let output = broker.folder + "/received"
        // A persistent session, made while the broker was up: it keeps what is published.
        let subscriber = try Self.subscribe(broker, id: "board", count: expected.count, output: output)
        defer { if subscriber.isRunning { subscriber.terminate(); _ = subscriber.waitForExit() } }
        broker.kill()
        // Two that have never reached the broker: a publisher and a plain subscriber.
        let publisherErrors = broker.folder + "/publisher.err", lateErrors = broker.folder + "/late.err"
        let publisher = try ChildProcess(Command.executable.path, ["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", log,
                                                                   "--speed", "8", "--id", "van6"], errorPath: publisherErrors)
        defer { if publisher.isRunning { publisher.terminate(); _ = publisher.waitForExit() } }
        let late = try ChildProcess(Command.executable.path, ["subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet", "--count", "1"],
                                    outputPath: broker.folder + "/late.out", errorPath: lateErrors)
        defer { if late.isRunning { late.terminate(); _ = late.waitForExit() } }
        func said(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        #expect(waitForChanges(to: publisherErrors) { said(publisherErrors).contains("Connection refused") }, "the publisher says the broker is down: \(said(publisherErrors))")
        #expect(waitForChanges(to: lateErrors) { said(lateErrors).contains("Connection refused; waiting for the broker") }, "\(said(lateErrors))")
        try broker.start()
        #expect(subscriber.exits(within: 40), "the session's subscriber got its \(expected.count) fixes")
        let received = said(output).split(separator: "\n").map(String.init)
        #expect(received == expected, "every epoch once, in order")
        #expect(late.exits(within: 40), "the subscriber that started without a broker got the retained fix")
        #expect(late.waitForExit() == 0)
        #expect(publisher.waitForExit() == 0)
        #expect(said(publisherErrors).components(separatedBy: "cannot connect").count == 2, "said once: \(said(publisherErrors))")
        #expect(said(publisherErrors).contains("\(2 * expected.count) messages acknowledged"), "\(said(publisherErrors))")
    }

    @Test("hostile messages, retained for every subscriber that connects: no crash, no forged vehicle, no escape reaches the output",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func hostileMessages() throws {
        let broker = try Broker()
        func publish(_ topic: String, _ payload: String) {
            #expect(spawnAndWait("/usr/bin/mosquitto_pub", ["-p", String(broker.port), "-t", topic, "-q", "1", "-r", "-m", payload]) == 0)
        }
        publish("fleet/evil/tpv", #"{"class":"TPV","device":"evil","time":"T99999999999999999:00:00Z","mode":3,"lat":1e300,"lon":2}"#)
        publish("fleet/nan/tpv", #"{"class":"TPV","time":"2024-06-05T12:30:1e300Z","mode":3,"lat":1,"lon":2,"speed":1e308}"#)
        publish("fleet/mallory/tpv", #"{"class":"TPV","device":"van7","time":"2024-06-05T12:30:04.000Z","mode":3,"lat":1,"lon":2}"#)
        // Control characters are not allowed in topics (the broker refuses them); a right-to-left
        // override is, and would reorder what the terminal shows after it.
        publish("fleet/a\u{202E}b\\u{7}/tpv", #"{"class":"TPV","time":"2024-06-05T12:30:04.000Z","mode":3,"lat":1,"lon":2}"#)
        for format in ["text", "csv", "gpx", "json"] {
            let output = broker.folder + "/out." + format
            let subscriber = try ChildProcess(Command.executable.path, ["subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet", "--format", format,
                                                                        "--count", "3"], outputPath: output, errorPath: output + ".err")
            #expect(subscriber.exits(within: 20), "\(format)")
            if subscriber.isRunning { subscriber.terminate() }
            #expect(subscriber.waitForExit() == 0, "\(format): \((try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? "")")
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(format): no control character printed: \(text.debugDescription)")
            #expect(!text.contains("mallory") && !text.contains("van7"), "\(format): a vehicle cannot speak for another")
            #expect(!text.unicodeScalars.contains("\u{202E}"), "\(format): no override printed")
            if format != "json" { #expect(text.contains(#"a\u{202E}b\\u{7}"#), "\(format): \(text)") }
            if format == "gpx" { #expect(spawnAndWait("/usr/bin/gpsbabel", ["-i", "gpx", "-f", output, "-o", "csv", "-F", "/dev/null"]) == 0, "valid GPX") }
        }
    }

    @Test("subscribe --format text, csv and gpx: each fix tagged with its vehicle",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func formats() throws {
        let broker = try Broker()
        var subscribers: [(String, ChildProcess, String)] = []
        for format in ["text", "csv", "gpx"] {
            let output = broker.folder + "/" + format
            let subscriber = try ChildProcess(Command.executable.path, ["subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet", "--format", format,
                                                                        "--id", "reader-" + format, "--count", "3"],
                                              outputPath: output, errorPath: output + ".err")
            #expect(waitForChanges(to: broker.folder) { broker.log.contains("Received SUBSCRIBE from reader-" + format) })
            subscribers.append((format, subscriber, output))
        }
        let published = try Command.run(["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"), "--id", "van&4"])
        #expect(published.status == 0, "\(published.error)")
        for (format, subscriber, output) in subscribers {
            #expect(subscriber.exits(within: 20), "\(format)")
            #expect(subscriber.waitForExit() == 0)
            let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            switch format {
            case "text":
                #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("van&4  2014-12-31") }, "\(lines)")
            case "csv":
                #expect(lines.first?.hasPrefix("device,time,latitude_deg") == true)
                #expect(lines.dropFirst().count == 3 && lines.dropFirst().allSatisfy { $0.hasPrefix("van&4,2014-12-31T03:07:") }, "\(lines)")
            default:
                #expect(lines.first?.hasPrefix("<?xml") == true && lines.last == "</gpx>")
                #expect(lines.filter { $0.hasPrefix("<trkpt") && $0.contains("<name>van&amp;4</name>") }.count == 3, "\(lines)")
            }
        }
    }

    @Test("queue full: with no broker, the oldest messages are dropped and counted, and the queue on disk stays in its bound",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func queueFull() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-full-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = freeLoopbackPort()
        let result = try Command.run(["publish", "mqtt://127.0.0.1:\(port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"), "--id", "van5",
                                      "--queue", folder, "--queue-size", "2K", "--drain-timeout", "0.5"])
        #expect(result.status == 0, "\(result.error)")
        let dropped = try #require(result.error.firstMatch(of: /(\d+) dropped \(the queue was full\)/).flatMap { Int($0.1) }, "\(result.error)")
        let kept = Self.queued(in: folder)
        // 20 epochs, each a SKY (its dilutions, and its satellites every fifth) and a TPV.
        #expect(dropped > 0 && dropped + kept.count == 40, "40 messages: \(dropped) dropped, \(kept.count) kept")
        #expect(kept.bytes <= 2048, "the queue stays in its bound: \(kept.bytes) bytes")
        #expect(result.error.contains("\(kept.count) still queued in \(folder)"), "\(result.error)")
    }

    @Test("a queue another process locks (a backup): at start it waits and says so once; locked as the log ends, what waits in memory is written on a timer once the lock goes, and nothing is lost",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func queueLocked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-locked-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/queue.sqlite3"
        /// Holds the database's write lock for `seconds`; says `locked` on its output first.
        func lock(seconds: Double, said: String) throws -> ChildProcess {
            let script = "import sqlite3,sys,time\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.execute('PRAGMA journal_mode=WAL')\n"
                + "c.execute('CREATE TABLE IF NOT EXISTS hold (x)')\nc.execute('BEGIN EXCLUSIVE')\nc.execute('INSERT INTO hold VALUES (1)')\n"
                + "print('locked',flush=True)\ntime.sleep(float(sys.argv[2]))\nc.execute('COMMIT')\n"
            let holder = try ChildProcess("/usr/bin/python3", ["-c", script, database, "\(seconds)"], outputPath: said)
            #expect(waitForChanges(to: said) { ((try? String(contentsOfFile: said, encoding: .utf8)) ?? "").contains("locked") })
            return holder
        }
        let port = freeLoopbackPort()
        let errors = folder + "/publish.err"
        // Locked at start: it waits, and goes on once the lock is gone.
        let first = try lock(seconds: 2, said: folder + "/first.out")
        let publisher = try ChildProcess(Command.executable.path, ["publish", "mqtt://127.0.0.1:\(port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"),
                                                                   "--id", "van7", "--queue", folder, "--speed", "4", "--drain-timeout", "9"],
                                         errorPath: errors)
        func said() -> String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
        #expect(waitForChanges(to: errors) { said().contains("another process holds its database locked") && said().contains("waiting for it") }, "\(said())")
        _ = first.waitForExit()
        #expect(waitForChanges(to: errors) { said().contains("publishing") }, "\(said())")
        // Locked again while the log plays to its end (20 epochs at 4 times their pace: 5 s),
        // and 3 s past it.
        let second = try lock(seconds: 8, said: folder + "/second.out")
        #expect(waitForChanges(to: errors, seconds: 10) { said().contains("cannot write the queue in \(folder)") }, "\(said())")
        _ = second.waitForExit()
        // The timer writes what waits without another epoch.
        #expect(waitForChanges(to: errors, seconds: 5) { said().contains("is written again; every message waiting is on the disk") }, "\(said())")
        #expect(Self.queued(in: folder).count == 40)
        let status = publisher.waitForExit()
        #expect(status == 0, "\(said())")
        #expect(said().contains("40 still queued in \(folder)") && !said().contains(" lost ("), "\(said())")
    }

    @Test("queue storage that cannot hold the queue: missing, a file, read-only: exit 73 at start with the reason, never a queue in memory only",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func queueStorageRefused() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-refused-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        _ = FileManager.default.createFile(atPath: base + "/file", contents: Data("x".utf8))
        var folders = [(base + "/missing/queue", "No such file"), (base + "/file", "not a folder")]
        let disk = SmallFilesystem(kilobytes: 256)
        if let disk, disk.setReadOnly(true) { folders.append((disk.path + "/queue", "Read-only")) }
        let port = freeLoopbackPort()
        for (folder, reason) in folders {
            let result = try Command.run(["publish", "mqtt://127.0.0.1:\(port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"), "--id", "van6",
                                          "--queue", folder, "--drain-timeout", "0"])
            #expect(result.status == 73, "\(folder): \(result.error)")
            #expect(result.error.contains("cannot keep the queue in \(folder)") && result.error.contains(reason), "\(result.error)")
        }
        disk?.setReadOnly(false)
    }

    @Test("messages lost are said and exit 74: no --queue and no broker at a log's end; a disk that fills with the broker down",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func messagesLost() throws {
        let port = freeLoopbackPort()
        let memory = try Command.run(["publish", "mqtt://127.0.0.1:\(port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"), "--id", "van7",
                                      "--drain-timeout", "0.3"])
        #expect(memory.status == 74, "\(memory.error)")
        #expect(memory.error.contains("40 lost (no --queue to keep them)"), "\(memory.error)")
        guard let disk = SmallFilesystem(kilobytes: 256) else {
            print("the full disk: skipped (mounting a small tmpfs needs root)")
            return
        }
        let folder = disk.path + "/queue"
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-lost-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let publisher = try ChildProcess(Command.executable.path, ["publish", "mqtt://127.0.0.1:\(port)/fleet", "--log", Command.fixture("sirf-cycle.nmea"),
                                                                   "--id", "van7", "--queue", folder, "--speed", "10", "--drain-timeout", "0.3"], errorPath: errors)
        // Once it publishes (the queue made and written), the disk fills while the log plays.
        #expect(waitForChanges(to: errors) { ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("publishing") })
        disk.fill()
        let status = publisher.waitForExit()
        let result = (status: status, error: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
        #expect(result.status == 74, "\(result.error)")
        #expect(result.error.contains("cannot write the queue in \(folder)") && result.error.contains("full"), "\(result.error)")
        #expect(result.error.components(separatedBy: "cannot write the queue").count == 2, "said once: \(result.error)")
        let lost = try #require(result.error.firstMatch(of: /(\d+) lost \(the disk refused them\)/).flatMap { Int($0.1) }, "\(result.error)")
        let kept = Self.queued(in: folder)
        #expect(lost > 0 && lost + kept.count == 40, "\(lost) lost, \(kept.count) kept of 40")
    }

    @Test("subscribe writing to a full disk (/dev/full): it ends with the reason and 74, never a silent loss",
          .enabled(if: hasBroker, "mosquitto is not installed"))
    func subscribeOutputFull() throws {
        let broker = try Broker()
        let errors = broker.folder + "/subscriber.err"
        let subscriber = try ChildProcess(Command.executable.path, ["subscribe", "mqtt://127.0.0.1:\(broker.port)/fleet", "--format", "json", "--id", "full"],
                                          outputPath: "/dev/full", errorPath: errors)
        defer { if subscriber.isRunning { subscriber.terminate(); _ = subscriber.waitForExit() } }
        #expect(waitForChanges(to: broker.folder) { broker.log.contains("Received SUBSCRIBE from full") })
        let published = try Command.run(["publish", "mqtt://127.0.0.1:\(broker.port)/fleet", "--log", Self.log, "--id", "van9"])
        #expect(published.status == 0, "\(published.error)")
        #expect(subscriber.exits(within: 10), "the subscriber goes on writing into nothing")
        #expect(subscriber.waitForExit() == 74)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(said.contains("cannot write the output: No space left on device"), "\(said)")
    }
}
