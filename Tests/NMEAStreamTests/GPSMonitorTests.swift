#if canImport(Glibc)
import Glibc
import Platform
#endif
import Dispatch
import Foundation
import Testing
import TestSupport
@testable import NMEAStream

@Suite("Shared signals", .mayBlock)
struct GPSMonitorTests {
    @Test("fixes, satellites, sentences and rejects share one open device; the last dispose closes it; a new subscriber reopens it")
    func oneDeviceForAll() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let terminal = try PseudoTerminal()
        let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600))
        #expect(openDescriptorCount(terminal.devicePath) == 0, "nothing opens before a subscriber")

        let fixes = SignalRecorder<Fix>(), views = SignalRecorder<SatelliteView>()
        let sentences = SignalRecorder<ReceivedSentence>(), rejects = SignalRecorder<RejectedInput>()
        let subscriptions = [fixes.observe(gps.fixes), views.observe(gps.satellites),
                             sentences.observe(gps.sentences), rejects.observe(gps.rejects)]
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        // Line noise first: it is reported when the next sentence starts.
        terminal.write(Array("\u{1}noise\r\n".utf8) + bytes)
        // Each subscriber is called on a queue of its own: wait for every one of them.
        #expect(fixes.wait { fixes.values.count == expected.count } && views.wait { !views.values.isEmpty }
            && rejects.wait { !rejects.values.isEmpty } && sentences.wait { !sentences.values.isEmpty })
        #expect(openDescriptorCount(terminal.devicePath) == 1, "four signals, one open device")
        #expect(fixes.values == expected)
        #expect(sentences.values.first?.text.hasPrefix("$") == true)

        subscriptions.prefix(3).forEach { $0.dispose() }
        #expect(openDescriptorCount(terminal.devicePath) == 1, "one subscriber left keeps it open")
        #expect(gps.currentReader != nil)
        subscriptions[3].dispose()
        #expect(openDescriptorCount(terminal.devicePath) == 0, "the last dispose closes it before it returns")
        // And the reader (with its read source) is gone.
        #expect(eventually { gps.currentReader == nil })

        let again = SignalRecorder<Fix>()
        let subscription = again.observe(gps.fixes)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        #expect(again.values.isEmpty, "no fix from before the reconnect is replayed")
        terminal.write(bytes)
        #expect(again.wait { !again.values.isEmpty })
        subscription.dispose()
        #expect(openDescriptorCount(terminal.devicePath) == 0)
        #expect(fixes.error == nil && again.error == nil)
    }

    @Test("a subscriber that joins while connected gets the latest fix first")
    func latestFixReplayed() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let terminal = try PseudoTerminal()
        let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600))
        let first = SignalRecorder<Fix>()
        let keep = first.observe(gps.fixes)
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        terminal.write(bytes)
        #expect(first.wait { first.values.count == expected.count })
        let late = SignalRecorder<Fix>()
        let subscription = late.observe(gps.fixes)
        #expect(late.wait { !late.values.isEmpty })
        #expect(late.values == [expected[expected.count - 1]], "the latest fix, and no older one")
        subscription.dispose()
        keep.dispose()
        #expect(openDescriptorCount(terminal.devicePath) == 0)
    }

    @Test("a slow subscriber skips to the newest fixes and holds up neither the reader nor the others")
    func slowSubscriber() throws {
        let bytes = try Fixtures.bytes("ublox-multi.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let terminal = try PseudoTerminal()
        let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600), delivery: .newest(capacity: 2))
        let fast = SignalRecorder<Fix>(), slow = SignalRecorder<Fix>()
        let gate = DispatchSemaphore(value: 0)
        let subscriptions = [
            slow.observe(gps.fixes) { _ in gate.wait() },
            fast.observe(gps.fixes),
        ]
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        terminal.write(bytes)
        // The fast one reaches the last fix while the slow one is still stuck in its first; with
        // a backlog of two it may itself have skipped some in the burst, but never reordered.
        #expect(fast.wait { fast.values.last == expected.last })
        #expect(fast.values.allSatisfy(expected.contains))
        #expect(fast.values.compactMap(\.time) == fast.values.compactMap(\.time).sorted())
        // The slow one is still in its first fix (whichever the burst left it: older ones may
        // have been pushed out before it started; its queue may not have taken it yet when the
        // fast one is done). Released, it gets the two newest only.
        #expect(slow.wait { slow.values.count == 1 })
        #expect(slow.values.count == 1)
        for _ in 0..<3 { gate.signal() }
        #expect(slow.wait { slow.values.last == expected.last })
        #expect(slow.values.count <= 3)
        #expect(Array(slow.values.dropFirst()) == Array(expected.suffix(slow.values.count - 1)))
        // Every fix a subscriber skipped is counted, in the monitor's total.
        #expect(gps.dropped.count == 2 * expected.count - slow.values.count - fast.values.count)
        subscriptions.forEach { $0.dispose() }
        #expect(openDescriptorCount(terminal.devicePath) == 0)
    }

    @Test("losing the device fails every subscriber and releases it")
    func deviceLost() throws {
        let terminal = try PseudoTerminal()
        let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600))
        let fixes = SignalRecorder<Fix>(), views = SignalRecorder<SatelliteView>()
        let subscriptions = [fixes.observe(gps.fixes), views.observe(gps.satellites)]
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        terminal.closeMaster()
        #expect(fixes.wait { fixes.ended } && views.wait { views.ended })
        guard case .deviceLost? = fixes.error, case .deviceLost? = views.error else {
            Issue.record("expected a lost device, got \(String(describing: fixes.error)), \(String(describing: views.error))")
            return
        }
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        subscriptions.forEach { $0.dispose() }
    }

    @Test("many threads subscribing and disposing at once: never two opens, never closed under a live subscriber")
    func concurrentSubscribers() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let gps = GPSMonitor(source: .serial(path: path, speed: 9600))
        let anchor = SignalRecorder<Fix>()
        let problems = Protected<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<25 {
                let recorder = SignalRecorder<Fix>()
                let subscription = recorder.observe(thread % 2 == 0 ? gps.fixes : gps.fixes.map { $0 })
                // While subscribed, the device is open exactly once (its open may still be on the way).
                if !waitForDescriptors(on: path, count: 1, seconds: 5) {
                    problems.withLock { $0.append("thread \(thread) round \(round): \(openDescriptorCount(path)) opens") }
                }
                subscription.dispose()
                if recorder.error != nil { problems.withLock { $0.append("thread \(thread): \(recorder.error!)") } }
            }
        }
        #expect(problems.withLock { $0 }.isEmpty)
        #expect(openDescriptorCount(path) == 0, "all gone: closed")
        let keep = anchor.observe(gps.fixes)
        #expect(waitForDescriptors(on: path, count: 1),
                "open \(openDescriptorCount(path)) times; the subscriber's error: \(String(describing: anchor.error))")
        keep.dispose()
        #expect(openDescriptorCount(path) == 0)
    }

    @Test("the AsyncSequence form: for try await fix in gps.fixes.values")
    func asyncFixes() async throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let gps = GPSMonitor(source: .bytes(bytes))
        var received: [Fix] = []
        for try await fix in gps.fixes.values { received.append(fix) }
        #expect(received == expected)
        await #expect(throws: GPSError.self) {
            for try await _ in GPSMonitor(source: .log(path: "/nonexistent/nmeastream.log")).fixes.values {}
        }
    }
}

extension GPSMonitorTests {
    @Test("values over a device follows its subscription's policy: a loop that stalls makes the monitor skip ahead, counted, and memory holds still")
    func valuesOverDeviceSkipAhead() async throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let terminal = try PseudoTerminal()
        let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600), delivery: .newest(capacity: 4))
        var iterator = gps.fixes.values(bufferingPolicy: .lossless(capacity: 4)).makeAsyncIterator()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        terminal.write(bytes)
        #expect(try await iterator.next() != nil)
        // The loop is busy while the receiver sends 20 times its log.
        for _ in 0..<20 { terminal.write(bytes) }
        #expect(eventually { gps.dropped.count >= 20 * expected.count - 4 - 4 - 2 },
                "the subscription dropped \(gps.dropped.count) of \(21 * expected.count): what the loop does not take is skipped, not kept")
    }
}

extension GPSMonitorTests {
    @Test("linger: the device stays open that long after the last subscriber, one back within it joins the same reader, and endLingering closes it at once")
    func linger() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let gps = GPSMonitor(source: .serial(path: path, speed: 9600), linger: .milliseconds(600))
        let first = gps.fixes.observe { _ in }
        #expect(eventually { openDescriptorCount(path) == 1 && gps.currentReader != nil })
        let reader = try #require(gps.currentReader)
        first.dispose()
        #expect(openDescriptorCount(path) == 1, "lingering")
        let second = gps.satellites.observe { _ in }
        #expect(gps.currentReader === reader, "joined the open device")
        second.dispose()
        #expect(waitForDescriptors(on: path, count: 0), "closed once the linger is over")
        let third = gps.fixes.observe { _ in }
        #expect(waitForDescriptors(on: path, count: 1))
        third.dispose()
        #expect(openDescriptorCount(path) == 1, "lingering")
        gps.endLingering()
        #expect(openDescriptorCount(path) == 0, "closed before endLingering returned")
    }
}

extension GPSMonitorTests {
    @Test("observe over a device follows the same rule as values: asked lossless, a stalled subscriber makes the monitor skip ahead, counted, never wait")
    func observeOverDeviceSkipAhead() throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let terminal = try PseudoTerminal()
        let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600))
        let counter = DropCounter()
        let stall = DispatchSemaphore(value: 0)
        let received = Protected(0)
        let subscription = gps.fixes(delivery: .lossless(capacity: 4), dropped: counter).observe(next: { _ in
            if received.withLock({ $0 += 1; return $0 }) == 1 { stall.wait() }
        })
        defer {
            stall.signal()
            subscription.dispose()
        }
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1))
        #expect(terminal.waitUntilConfigured())
        for _ in 0..<20 { terminal.write(bytes) }
        // The reader goes on while the subscriber stalls: all but the buffer's 4 and the one
        // in the handler are skipped.
        #expect(eventually { counter.count >= 20 * expected.count - 4 - 1 - 2 },
                "the subscription dropped \(counter.count) of \(20 * expected.count)")
        // The monitor's count and the subscription's are bumped one after the other, while the
        // last fixes may still be dropped: the two agree once the drops are over.
        #expect(eventually { gps.dropped.count == counter.count }, "\(gps.dropped.count) against \(counter.count)")
    }
}

extension GPSMonitorTests {
    @Test("values over a log holds its reader back: while the loop stalls, another subscriber of the same monitor gets no further than the buffers allow, and then every fix")
    func valuesOverLogWaits() async throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let long = Array((0..<200).map { _ in bytes }.joined())
        let gps = GPSMonitor(source: .bytes(long), opening: .onConnect)
        let other = SignalRecorder<Fix>()
        let subscription = other.observe(gps.fixes)
        var iterator = gps.fixes.values.makeAsyncIterator()
        let connection = gps.connect()
        defer {
            subscription.dispose()
            connection.dispose()
        }
        #expect(try await iterator.next() != nil)
        try await Task.sleep(for: .milliseconds(300))
        // The loop's 256 and its subscription's 256, a batch on its way: not the 4,000 fixes.
        #expect(other.values.count <= 256 + 256 + 256 + 2, "the other subscriber got \(other.values.count) of \(200 * expected.count) while the loop stalled")
        var count = 1
        while try await iterator.next() != nil { count += 1 }
        #expect(count == 200 * expected.count)
        #expect(other.wait { other.values.count == 200 * expected.count })
        #expect(gps.dropped.count == 0)
    }
}

/// The README's signal and `AsyncSequence` examples, with a log in place of the device and a
/// recorder in place of `print` and `exit`.
@Suite("README signal examples", .mayBlock)
struct ReadmeSignalExampleTests {
    @Test("two subscribers on one monitor: fixes and satellite views, each to its end, then the program's")
    func signals() throws {
        let path = Fixtures.directory.appendingPathComponent("ublox-multi.nmea").path
        // At a receiver's pace (20 times faster): read as fast as possible, the whole log could
        // be over before the second subscriber joins, as it would not be with a device.
        let gps = GPSMonitor(source: .log(path: path, pace: .recorded(speed: 20)))
        let lines = Protected<[String]>([])
        let views = Protected(0)
        let ended = DispatchGroup()
        ended.enter()
        ended.enter()
        let track = gps.fixes.observe(
            next: { fix in lines.withLock { $0.append("\(fix.latitude ?? .nan) \(fix.longitude ?? .nan) \(fix.speed ?? .nan)") } },
            failed: { error in lines.withLock { $0.append("nmeastream: \(error)") }; ended.leave() },
            completed: { ended.leave() })
        let sky = gps.satellites.observe(
            next: { view in views.withLock { $0 += view.satellites.isEmpty ? 0 : 1 } },
            failed: { _ in ended.leave() },
            completed: { ended.leave() })
        let exited = DispatchSemaphore(value: 0)
        ended.notify(queue: .global()) { exited.signal() }
        #expect(exited.wait(timeout: .now() + 10) == .success)
        // Both ended before the program would: nothing of either is cut off.
        #expect(lines.withLock { $0.count } == Fixtures.expectedFixes(try Fixtures.bytes("ublox-multi.nmea")).count)
        #expect(views.withLock { $0 } > 0)
        track.dispose()
        sky.dispose()
    }

    /// The README's `Logger`, as printed, with `print` collected.
    private func logger(_ path: String) async -> [String] {
        var lines: [String] = []
        let gps = GPSMonitor(source: .log(path: path))
        do {
            for try await fix in gps.fixes.values {
                lines.append("\(fix.time?.description ?? "-") \(fix.latitude ?? .nan) \(fix.longitude ?? .nan)")
            }
        } catch {
            lines.append("logger: \(error)")
        }
        return lines
    }

    @Test("for try await over a log: every fix, then the loop ends; a missing log is an error printed, not a crash")
    func asyncSequence() async throws {
        let path = Fixtures.directory.appendingPathComponent("sirf-cycle.nmea").path
        let lines = await logger(path)
        #expect(lines.count == Fixtures.expectedFixes(try Fixtures.bytes("sirf-cycle.nmea")).count)
        let missing = await logger("/nonexistent/drive.nmea")
        #expect(missing.count == 1)
        #expect(missing.first?.hasPrefix("logger: ") == true && missing.first?.contains("/nonexistent/drive.nmea") == true)
    }
}

extension GPSMonitorTests {
    @Test("a for-await loop has one buffer, filled on the reader's queue: while the loop stalls, the reader stops after its 256 values, not after a second buffer's too")
    func valuesHaveOneBuffer() async throws {
        let bytes = try Fixtures.bytes("sirf-cycle.nmea")
        let expected = Fixtures.expectedFixes(bytes)
        let long = Array((0..<200).map { _ in bytes }.joined())
        let gps = GPSMonitor(source: .bytes(long), opening: .onConnect)
        // Counts what the reader has sent, on the reader's own queue, before the loop's buffer.
        let sent = Protected(0)
        let counting = gps.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false)
            .observe(next: { event in if event.fix != nil { sent.withLock { $0 += 1 } } })
        var iterator = gps.fixes.values.makeAsyncIterator()
        let connection = gps.connect()
        defer {
            counting.dispose()
            connection.dispose()
        }
        #expect(try await iterator.next() != nil)
        try await Task.sleep(for: .milliseconds(300))
        let stalled = sent.withLock { $0 }
        #expect(stalled <= 256 + 2, "the reader sent \(stalled) fixes while the loop, with room for 256, stalled")
        var count = 1
        while try await iterator.next() != nil { count += 1 }
        #expect(count == 200 * expected.count)
    }
}
