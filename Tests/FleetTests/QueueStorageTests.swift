import Dispatch
import Foundation
import Testing
import NMEAStream
import TestSupport
@testable import Fleet

/// The queue's disk work apart from its memory: a write taken out and committed while the
/// queue moves on, and a publisher whose disk stalls.
@Suite("Fleet: the queue's writes on their own executor", .mayBlock)
struct QueueStorageTests {
    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-queue-\(UUID().uuidString)").path
    }

    @Test("a write taken out while the queue moves on: what the broker took or the bound dropped meanwhile leaves the disk with the next write; the rest is stored, in order")
    func writeTakenOut() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var queue = try MessageQueue(folder: folder, capacity: 300)
        queue.enqueue((0..<3).map { .init(topic: "fleet/van/tpv", payload: Array(repeating: UInt8($0), count: 80), retain: false) })
        let taken = queue.takeWrite()
        let write = try #require(taken)
        #expect(write.messages.count == 3)
        let next = queue.takeWrite()
        #expect(next == nil, "one write at a time: none more while it is out")
        // While it commits: the broker takes the first, and two more push the second out.
        let deletionDue = queue.acknowledge(queue.messages[0].sequence)
        #expect(!deletionDue, "a deletion is due only once something is stored")
        queue.enqueue((3..<5).map { .init(topic: "fleet/van/tpv", payload: Array(repeating: UInt8($0), count: 80), retain: false) })
        #expect(queue.messages.map { $0.payload[0] } == [2, 3, 4] && queue.dropped == 1)
        let change = queue.finish(write, failure: write.commit())
        #expect(change == nil)
        #expect(queue.unstored == 2, "the two that came meanwhile wait for the next write")
        let second = queue.write()
        #expect(second == nil)
        #expect(queue.unstored == 0)
        let reopened = try MessageQueue(folder: folder, capacity: 300)
        #expect(reopened.messages.map { $0.payload[0] } == [2, 3, 4], "on the disk: what waits, and nothing the broker took or the bound dropped")
        #expect(reopened.dropped == 1)
    }

    @Test("a write that fails keeps its deletions and its messages for the next one, and says so once")
    func failedWriteKept() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var queue = try MessageQueue(folder: folder, capacity: 1 << 20)
        _ = queue.append([.init(topic: "t", payload: [1], retain: false), .init(topic: "t", payload: [2], retain: false)])
        let deletionDue = queue.acknowledge(queue.messages[0].sequence)
        #expect(!deletionDue, "two were stored, one still waits")
        queue.enqueue([.init(topic: "t", payload: [3], retain: false)])
        let taken = queue.takeWrite()
        let write = try #require(taken)
        #expect(write.deletions.count == 1 && write.messages.count == 1)
        let refusal = SQLiteError(code: 13, message: "database or disk is full", errno: nil)
        let failed = queue.finish(write, failure: refusal)
        #expect(failed == .failed("database or disk is full"))
        #expect(queue.unstored == 1)
        let recovered = queue.write()
        #expect(recovered == .recovered)
        let reopened = try MessageQueue(folder: folder, capacity: 1 << 20)
        #expect(reopened.messages.map { $0.payload[0] } == [2, 3])
    }

    @Test("a disk that stalls stalls no broker traffic: with the queue's writes held, every epoch is sent and acknowledged; once they run, nothing the broker took stays on the disk",
          .enabled(if: MosquittoBroker.isInstalled, "mosquitto is not installed"))
    func stalledDisk() throws {
        let broker = try MosquittoBroker()
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let monitor = GPSMonitor(source: .bytes((0..<20).flatMap(SyntheticEpochs.epoch)))
        var configuration = FixPublisher.Configuration(url: try MQTTURL("mqtt://127.0.0.1:\(broker.port)/fleet"), name: "van")
        configuration.queueFolder = folder
        let storing = DispatchQueue(label: "test.storage")
        storing.suspend()
        let publisher = try FixPublisher(monitor: monitor, configuration: configuration, storing: storing)
        try publisher.start()
        #expect(eventually { publisher.status.acknowledged >= 20 && publisher.status.queued == 0 },
                "acknowledged with the disk stalled: \(publisher.status)")
        storing.resume()
        publisher.stop()
        let status = publisher.status
        #expect(status.acknowledged >= 20 && status.queued == 0 && status.unstored == 0 && status.dropped == 0)
        #expect(try MessageQueue(folder: folder, capacity: 1 << 20).messages.isEmpty, "nothing left on the disk")
    }
}
