import Dispatch
import NIOCore
import NIOEmbedded
import Platform
import Testing
@testable import NMEAServer
import TestSupport

/// The server's timers, on an embedded loop whose clock the test moves.
@Suite("server loops: timers, and work put on them", .mayBlock)
struct ServerLoopsTests {
    @Test("a timer runs on the loop once its delay has passed, not before")
    func runsAfterDelay() {
        let loop = EmbeddedEventLoop()
        let timers = ServerLoops(on: loop)
        let ran = Protected(0)
        timers.schedule(after: .seconds(1)) { ran.withLock { $0 += 1 } }
        loop.advanceTime(by: .milliseconds(999))
        #expect(ran.withLock { $0 } == 0)
        loop.advanceTime(by: .milliseconds(1))
        #expect(ran.withLock { $0 } == 1)
        #expect(timers.waitingCount == 0)
    }

    @Test("shutting down cancels what waits, and a timer asked for afterwards is dropped, never put on the loop")
    func shutDown() {
        let loop = EmbeddedEventLoop()
        let timers = ServerLoops(on: loop)
        let ran = Protected(0)
        timers.schedule(after: .seconds(1)) { ran.withLock { $0 += 1 } }
        timers.schedule(after: .seconds(2)) { ran.withLock { $0 += 1 } }
        #expect(timers.waitingCount == 2)
        timers.stopTimers()
        #expect(timers.waitingCount == 0)
        timers.schedule(after: .zero) { ran.withLock { $0 += 1 } }
        #expect(timers.waitingCount == 0)
        loop.advanceTime(by: .seconds(10))
        #expect(ran.withLock { $0 } == 0)
    }

    @Test("work is put on the loops only while they run: shutDown waits for a body under way, and none runs after")
    func whileRunning() {
        let loops = ServerLoops(on: EmbeddedEventLoop())
        #expect(loops.whileRunning {})
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let finished = Protected(false), shutDown = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            loops.whileRunning {
                inside.signal()
                release.wait()
                finished.withLock { $0 = true }
            }
        }
        inside.wait()
        DispatchQueue.global().async {
            loops.shutDown()
            // Returns only once the body under way has finished.
            #expect(finished.withLock { $0 })
            shutDown.signal()
        }
        #expect(shutDown.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "shutDown waits for the body")
        release.signal()
        #expect(shutDown.wait(timeout: .now() + 10) == .success)
        #expect(!loops.whileRunning { Issue.record("ran after shutDown") })
    }
}
