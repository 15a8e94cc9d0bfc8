import NIOCore
import NIOEmbedded
import Platform
import Testing
@testable import NMEAServer

/// The server's timers, on an embedded loop whose clock the test moves.
@Suite("server timers")
struct ServerTimersTests {
    @Test("a timer runs on the loop once its delay has passed, not before")
    func runsAfterDelay() {
        let loop = EmbeddedEventLoop()
        let timers = ServerTimers(on: loop)
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
        let timers = ServerTimers(on: loop)
        let ran = Protected(0)
        timers.schedule(after: .seconds(1)) { ran.withLock { $0 += 1 } }
        timers.schedule(after: .seconds(2)) { ran.withLock { $0 += 1 } }
        #expect(timers.waitingCount == 2)
        timers.shutDown()
        #expect(timers.waitingCount == 0)
        timers.schedule(after: .zero) { ran.withLock { $0 += 1 } }
        #expect(timers.waitingCount == 0)
        loop.advanceTime(by: .seconds(10))
        #expect(ran.withLock { $0 } == 0)
    }
}
