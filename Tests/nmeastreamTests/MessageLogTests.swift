import Dispatch
import Signals
import Testing
@testable import nmeastream
import Platform
import TestSupport

@Suite("Messages on standard error", .mayBlock)
struct MessageLogTests {
    @Test("one line per interval and key: the first at once, then the last held back with its count; a quiet key says its next at once")
    func coalescing() {
        var coalescer = MessageCoalescer(interval: 1)
        #expect(coalescer.take("jump 1", key: "jump a") == .init(say: "jump 1", closeLater: "jump a"))
        for n in 2...20 { #expect(coalescer.take("jump \(n)", key: "jump a") == .init()) }
        // Another key, or another source, has its own interval.
        #expect(coalescer.take("loss 1", key: "loss a").say == "loss 1")
        #expect(coalescer.take("jump x", key: "jump b").say == "jump x")
        #expect(coalescer.close("jump a") == .init(say: "jump 20 (and 18 more like it in 1 s)", closeLater: "jump a"))
        #expect(coalescer.take("jump 21", key: "jump a") == .init())
        #expect(coalescer.close("jump a") == .init(say: "jump 21", closeLater: "jump a"))
        // Nothing came in the last interval: quiet, and the next is said at once.
        #expect(coalescer.close("jump a") == .init())
        #expect(coalescer.take("jump 22", key: "jump a").say == "jump 22")
    }

    @Test("distinct keys cannot escape the bound: past the open keys allowed, they share one interval")
    func keysBounded() {
        var coalescer = MessageCoalescer(interval: 1, maximumKeys: 4)
        var said = 0
        for n in 0..<10_000 where coalescer.take("event \(n)", key: "key \(n)").say != nil { said += 1 }
        #expect(said == 5)
        #expect(coalescer.openKeys == 5)
        #expect(coalescer.close(MessageCoalescer.overflowKey).say == "event 9999 (and 9994 more messages of other kinds in 1 s)")
    }

    @Test("a peer failing the same way is said once; again when the reason changes, or after it was back")
    func oncePerReason() {
        var coalescer = MessageCoalescer()
        var said = [coalescer.takeOnChange(key: "network a", reason: "connection refused")]
        for _ in 0..<10 { said.append(coalescer.takeOnChange(key: "network a", reason: "connection refused")) }
        // Another peer; a new reason; after the peer was back.
        said.append(coalescer.takeOnChange(key: "network b", reason: "connection refused"))
        said.append(coalescer.takeOnChange(key: "network a", reason: "no route to host"))
        coalescer.forget("network a")
        said.append(coalescer.takeOnChange(key: "network a", reason: "no route to host"))
        #expect(said == [true] + Array(repeating: false, count: 10) + [true, true, true])
    }

    @Test("the same message heard by two paths is said once")
    func sameMessageOnce() {
        var coalescer = MessageCoalescer(interval: 1)
        #expect(coalescer.take("jump", key: "jump a", identity: 7).say == "jump")
        #expect(coalescer.take("jump", key: "jump a", identity: 7) == .init())
        #expect(coalescer.close("jump a") == .init())
    }

    @Test("an output that does not move holds up no caller: lines past the capacity are dropped, and the count is said once it moves")
    func blockedOutput() {
        let gate = DispatchSemaphore(value: 0), writing = DispatchSemaphore(value: 0)
        let written = Protected<[String]>([])
        let log = MessageLog { bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            if line.contains("first") {
                writing.signal()
                gate.wait()
            }
            written.withLock { $0.append(line) }
        }
        log.say("first")
        writing.wait()
        // The writer is stuck on the first line; 100,000 more never wait.
        for n in 0..<100_000 { log.say("line \(n)") }
        #expect(log.droppedLines >= 100_000 - MessageLog.capacity)
        #expect(!log.flush(waitingAtMost: .milliseconds(50)), "the output does not move")
        gate.signal()
        #expect(log.flush(waitingAtMost: .seconds(10)))
        let lines = written.withLock { $0 }
        #expect(lines.first == "nmeastream: first\n")
        #expect(lines.count <= 2 + MessageLog.capacity)
        #expect(lines.filter { $0.contains("not written") } == ["nmeastream: \(log.droppedLines) messages not written: standard error was not read in time\n"])
        #expect(lines.last == "nmeastream: line 99999\n")
    }

    @Test("a line longer than the bound is cut on a character's boundary and says so")
    func longLine() {
        let written = Protected<[String]>([])
        let log = MessageLog { bytes in written.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        log.say(String(repeating: "é", count: 10_000))
        log.flush(waitingAtMost: .seconds(10))
        let line = written.withLock { $0.first } ?? ""
        #expect(line.hasSuffix(" [cut: 20000 bytes]\n"))
        #expect(line.utf8.count < MessageLog.maximumLineBytes + 100)
        #expect(!line.contains("\u{FFFD}"))
    }
}
