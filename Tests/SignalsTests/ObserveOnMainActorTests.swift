import Dispatch
import Platform
import Signals
import Testing
import TestSupport

@Suite("observeOnMainActor: bounded", .mayBlock)
struct ObserveOnMainActorTests {
    @Test("while the main actor is busy, at most `capacity` values wait: the oldest are pushed out and counted, the newest delivered in order")
    @MainActor
    func boundedWhileBusy() async {
        let subject = Subject<Int, Never>()
        let dropped = DropCounter()
        let received = Protected<[Int]>([])
        let delivered = DispatchSemaphore(value: 0)
        let subscription = subject.signal.observeOnMainActor(capacity: 8, dropped: dropped, next: { value in
            received.withLock { $0.append(value) }
            if value == 1_000 { delivered.signal() }
        })
        defer { subscription.dispose() }
        // Sent from the main actor itself: nothing can be delivered before it lets go.
        for value in 1...1_000 { subject.next(value) }
        #expect(received.withLock { $0 }.isEmpty)
        #expect(dropped.count == 992)
        // Let the main queue run, waiting off it for the last value.
        let arrived = await Task.detached { delivered.wait(timeout: .now() + 10) == .success }.value
        #expect(arrived)
        #expect(received.withLock { $0 } == Array(993...1_000))
    }
}
