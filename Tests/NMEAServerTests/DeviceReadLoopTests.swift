import Dispatch
import NIOPosix
import Synchronization
import Signals
import Testing
import TestSupport
@testable import NMEAServer
@testable import NMEAStream
import Platform

/// A device read on an event loop (what `serve` does): decoded on the loop's thread, lost
/// when its other end goes, closed by stop, and stoppable from its own delegate call.
@Suite("a device read on an event loop", .mayBlock)
struct DeviceReadLoopTests {
    /// Records what a reader says, and whether each fix came on the loop's thread.
    final class Recorder: NMEAReaderDelegate, Sendable {
        private struct Seen {
            var fixes = 0
            var fixesOffLoop = 0
            var failure: GPSError?
        }
        private let seen = Protected(Seen())
        private let changes = ChangeNotifier()
        /// Called on each fix, on the reader's queue.
        let onFix: @Sendable (NMEAReader) -> Void

        init(onFix: @escaping @Sendable (NMEAReader) -> Void = { _ in }) { self.onFix = onFix }

        var fixes: Int { seen.withLock { $0.fixes } }
        var fixesOffLoop: Int { seen.withLock { $0.fixesOffLoop } }
        var failure: GPSError? { seen.withLock { $0.failure } }

        /// Waits until `condition` holds, asked now and after each fix or failure, at most `seconds`.
        func wait(seconds: Double = 10, until condition: () -> Bool) -> Bool {
            changes.wait(seconds: seconds, until: condition)
        }

        func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
            let onLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
            seen.withLock { seen in
                seen.fixes += 1
                if !onLoop { seen.fixesOffLoop += 1 }
            }
            changes.changed()
            onFix(reader)
        }

        func reader(_ reader: NMEAReader, didFailWith error: GPSError) {
            seen.withLock { $0.failure = error }
            changes.changed()
        }
    }

    /// A started reader of a new pseudo-terminal, read on `group`'s loop; returns once the
    /// device is open and set up.
    func startReading(on group: MultiThreadedEventLoopGroup, _ recorder: Recorder) throws -> (PseudoTerminal, NMEAReader) {
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600), readLoop: EventLoopDeviceReadLoop(group: group))
        reader.delegate = recorder
        reader.start()
        #expect(waitForDescriptors(on: terminal.devicePath, count: 1), "one descriptor: the loop's")
        #expect(terminal.waitUntilConfigured())
        return (terminal, reader)
    }

    @Test("fixes are decoded on the loop's thread; stop returns once the device is closed")
    func decodedOnTheLoop() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let recorder = Recorder()
        let (terminal, reader) = try startReading(on: group, recorder)
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1) + SyntheticEpochs.epoch(2))
        #expect(recorder.wait { recorder.fixes >= 2 })
        #expect(recorder.fixesOffLoop == 0)
        reader.stop()
        #expect(openDescriptorCount(terminal.devicePath) == 0, "closed when stop returns")
        #expect(recorder.failure == nil)
    }

    @Test("the other end going away ends the reading as a lost device, and closes it")
    func otherEndGone() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let recorder = Recorder()
        let (terminal, reader) = try startReading(on: group, recorder)
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1))
        #expect(recorder.wait { recorder.fixes >= 1 })
        terminal.closeMaster()
        #expect(recorder.wait {
            if case .deviceLost? = recorder.failure { return true }
            return false
        })
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        reader.stop()
    }

    @Test("stopped from its own delegate call, on the loop: no wait, no further fix, and the device closes")
    func stoppedFromADelegateCall() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let recorder = Recorder { reader in reader.stop() }
        let (terminal, reader) = try startReading(on: group, recorder)
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1) + SyntheticEpochs.epoch(2))
        #expect(waitForDescriptors(on: terminal.devicePath, count: 0))
        terminal.write(SyntheticEpochs.epoch(3) + SyntheticEpochs.epoch(4))
        // The loop is not held up: a task on it runs.
        #expect(try group.next().submit { true }.wait())
        #expect(recorder.fixes == 1)
        withExtendedLifetime(reader) {}
    }

    @Test("a monitor read on an event loop: the last dispose, on that loop, returns without waiting for the loop; a subscriber right after opens the device once the old one is released, never twice")
    func disposeOnTheLoop() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let terminal = try PseudoTerminal()
        let path = terminal.devicePath
        let gps = GPSMonitor(source: .serial(path: path, speed: 9600), readLoop: EventLoopDeviceReadLoop(group: group))
        let loop = group.next()
        let fixes = Atomic<Int>(0)
        let first = Protected<Disposable?>(nil), second = Protected<Disposable?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            first.withLock { $0 = gps.fixes.observe { _ in } }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(waitForDescriptors(on: path, count: 1))
        #expect(terminal.waitUntilConfigured())
        // The device is released on this very loop: a dispose that waited for it would never return.
        loop.execute {
            first.withLock { $0 }?.dispose()
            second.withLock { $0 = gps.fixes.observe(next: { _ in fixes.add(1, ordering: .relaxed) }) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the dispose on the loop returned")
        var most = 0
        let reopened = eventually {
            let open = openDescriptorCount(path)
            most = max(most, open)
            return open == 1 && gps.currentReader != nil && terminal.waitUntilConfigured()
        }
        #expect(reopened)
        #expect(most <= 1, "never two opens")
        terminal.write(SyntheticEpochs.epoch(0) + SyntheticEpochs.epoch(1) + SyntheticEpochs.epoch(2))
        #expect(eventually { fixes.load(ordering: .relaxed) >= 2 }, "the new subscriber reads the device")
        // Off the loops, the last dispose returns once the device is closed.
        second.withLock { $0 }?.dispose()
        #expect(openDescriptorCount(path) == 0)
    }
}
