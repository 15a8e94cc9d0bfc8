import Foundation
import Testing
import TestSupport
@testable import NMEAStream

/// A log read as it grows (``FollowedLog``): a source kind of its own, read by the reader like
/// any other.
@Suite("a log followed as it grows", .mayBlock)
struct FollowedLogTests {
    /// A file in a folder of its own, with `epochs` written to it.
    static func log(_ epochs: Range<Int>) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("followed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("gps.nmea")
        try Data(epochs.flatMap(SyntheticEpochs.epoch)).write(to: file)
        return file
    }

    static func append(_ epochs: Range<Int>, to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(epochs.flatMap(SyntheticEpochs.epoch)))
    }

    /// A reader of `file` followed from `start`, looking every 20 ms, started, with its recorder.
    static func follow(_ file: URL, from start: FollowedLog.Start) -> (NMEAReader, ReaderRecorder) {
        let reader = NMEAReader(source: .kind(FollowedLog(path: file.path, from: start, pollInterval: .milliseconds(20))))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        return (reader, recorder)
    }

    /// The second of the day (after noon) each fix is of.
    static func seconds(_ fixes: [Fix]) -> [Int64] {
        fixes.compactMap { $0.time.map { $0.posixTime.seconds % 86_400 - 12 * 3600 } }
    }

    @Test("from its beginning: what is there, then what is added, each epoch once and in order, live, and it does not end")
    func fromBeginning() throws {
        let file = try Self.log(0..<3)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (reader, recorder) = Self.follow(file, from: .beginning)
        defer { reader.stop() }
        // Each epoch is reported at its RMC, once the reader has learnt that it closes the cycle.
        #expect(recorder.wait { Self.seconds(recorder.fixes) == [0, 1, 2] }, "\(Self.seconds(recorder.fixes))")
        try Self.append(3..<6, to: file)
        #expect(recorder.wait { Self.seconds(recorder.fixes) == [0, 1, 2, 3, 4, 5] }, "\(Self.seconds(recorder.fixes))")
        #expect(recorder.fixes.allSatisfy { $0.receivedAt != nil }, "live bytes are stamped as read")
        #expect(!recorder.finished)
        #expect(reader.source.description == "follow:\(file.path)")
    }

    @Test("from its end: what was there is read past; only what is added is decoded")
    func fromEnd() throws {
        let file = try Self.log(0..<3)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (reader, recorder) = Self.follow(file, from: .end)
        defer { reader.stop() }
        // What is there when the file is opened is read past, however soon after it comes.
        #expect(waitForDescriptors(on: file.path, count: 1))
        try Self.append(10..<14, to: file)
        #expect(recorder.wait { Self.seconds(recorder.fixes) == [10, 11, 12, 13] }, "\(Self.seconds(recorder.fixes))")
    }

    @Test("a file emptied under it (a rotation's copytruncate) is read again from its start")
    func truncated() throws {
        let file = try Self.log(0..<3)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (reader, recorder) = Self.follow(file, from: .beginning)
        defer { reader.stop() }
        #expect(recorder.wait { Self.seconds(recorder.fixes) == [0, 1, 2] })
        // Shorter than what was read: the reader sees the file shrank, whenever it looks.
        try Data().write(to: file)
        try Self.append(20..<22, to: file)
        #expect(recorder.wait { Self.seconds(recorder.fixes) == [0, 1, 2, 20, 21] }, "\(Self.seconds(recorder.fixes))")
    }

    @Test("a file that is not there: the reader fails with the log's error; stopped, its descriptor is closed")
    func missingAndStopped() throws {
        let missing = NMEAReader(source: .kind(FollowedLog(path: "/nonexistent/nmeastream/gps.nmea")))
        let failed = ReaderRecorder()
        missing.delegate = failed
        missing.start()
        #expect(failed.waitForEnd())
        guard case .log(let error)? = failed.error else {
            Issue.record("not a log error: \(String(describing: failed.error))")
            return
        }
        #expect(error.errno == .noSuchFile)

        let file = try Self.log(0..<1)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let reader = NMEAReader(source: .kind(FollowedLog(path: file.path)))
        reader.start()
        #expect(waitForDescriptors(on: file.path, count: 1))
        reader.stop()
        #expect(waitForDescriptors(on: file.path, count: 0))
    }

    @Test("a file that opens but cannot be read (the process's own memory, whose first page is unmapped): the reader fails with the read's error, its descriptor closed; a recorded log the same way, through the same reading core",
          arguments: [true, false])
    func readFails(followed: Bool) throws {
        // As /proc/self/fd names it, so that a descriptor left open would be counted.
        let path = "/proc/\(ProcessInfo.processInfo.processIdentifier)/mem"
        let before = openDescriptorCount(path)
        let reader = NMEAReader(source: followed ? .kind(FollowedLog(path: path, from: .beginning)) : .log(path: path))
        let recorder = ReaderRecorder()
        reader.delegate = recorder
        reader.start()
        #expect(recorder.waitForEnd())
        guard case .log(let error)? = recorder.error else {
            Issue.record("not a log error: \(String(describing: recorder.error))")
            return
        }
        #expect(error.operation == .read && error.errno == .ioError, "\(error)")
        #expect(openDescriptorCount(path) == before, "closed once it failed")
    }

    @Test("kinds compare by type and value, as sources")
    func equality() {
        #expect(GPSSource.kind(FollowedLog(path: "/a")) == .kind(FollowedLog(path: "/a")))
        #expect(GPSSource.kind(FollowedLog(path: "/a")) != .kind(FollowedLog(path: "/b")))
        #expect(GPSSource.kind(FollowedLog(path: "/a")) != .log(path: "/a"))
    }
}
