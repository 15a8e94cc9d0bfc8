import Testing
import Signals
import TestSupport

protocol PingDelegate: AnyObject {
    func ping(_ from: String)
}

final class PingListener: PingDelegate, @unchecked Sendable {
    let name: String
    var pings: [String] = []
    var onPing: ((PingListener) -> Void)?
    init(_ name: String) { self.name = name }
    func ping(_ from: String) {
        pings.append(from)
        onPing?(self)
    }
}

@Suite("MulticastDelegate", .mayBlock)
struct MulticastDelegateTests {
    @Test("add, contains, remove and callAll, without duplicates")
    func basics() {
        let delegates = MulticastDelegate<any PingDelegate>()
        let a = PingListener("a")
        let b = PingListener("b")
        delegates.add(a)
        delegates.add(b)
        delegates.add(a)
        #expect(delegates.count == 2)
        #expect(delegates.contains(a))
        delegates.callAll { $0.ping("1") }
        delegates.remove(a)
        #expect(!delegates.contains(a))
        delegates.callAll { $0.ping("2") }
        #expect(a.pings == ["1"])
        #expect(b.pings == ["1", "2"])
    }

    @Test("the primary is called first, in a slot of its own that setting replaces; the change count moves with every change, and live() is the list at that count")
    func primaryAndChanges() {
        let delegates = MulticastDelegate<any PingDelegate>()
        let a = PingListener("a"), b = PingListener("b"), first = PingListener("first"), second = PingListener("second")
        let start = delegates.changeCount
        delegates.add(a)
        delegates.primary = first
        delegates.add(b)
        #expect(delegates.changeCount == start + 3)
        #expect(delegates.live().map { ($0 as! PingListener).name } == ["first", "a", "b"])
        #expect(delegates.count == 3)
        #expect(delegates.contains(first))
        var order: [String] = []
        delegates.callAll { order.append(($0 as! PingListener).name) }
        #expect(order == ["first", "a", "b"])
        delegates.primary = second
        #expect(!delegates.contains(first))
        #expect((delegates.primary as? PingListener) === second)
        delegates.remove(a)
        #expect(delegates.changeCount == start + 5)
        #expect(delegates.live().map { ($0 as! PingListener).name } == ["second", "b"])
        delegates.primary = nil
        #expect(delegates.primary == nil)
        #expect(delegates.live().map { ($0 as! PingListener).name } == ["b"])
        do {
            let gone = PingListener("gone")
            delegates.primary = gone
        }
        #expect(delegates.primary == nil, "held weakly")
        #expect(delegates.count == 1)
    }

    @Test("the list does not keep delegates alive; dead entries are pruned")
    func weak() {
        let delegates = MulticastDelegate<any PingDelegate>()
        weak var released: PingListener?
        do {
            let temporary = PingListener("t")
            released = temporary
            delegates.add(temporary)
            #expect(delegates.count == 1)
        }
        #expect(released == nil)
        #expect(delegates.isEmpty)
        var calls = 0
        delegates.callAll { _ in calls += 1 }
        #expect(calls == 0)
    }

    @Test("a delegate may remove itself and add another during a callback")
    func reentrant() {
        let delegates = MulticastDelegate<any PingDelegate>()
        let a = PingListener("a")
        let late = PingListener("late")
        a.onPing = { listener in
            delegates.remove(listener)
            delegates.add(late)
        }
        delegates.add(a)
        delegates.callAll { $0.ping("1") }
        #expect(late.pings == [])
        delegates.callAll { $0.ping("2") }
        #expect(a.pings == ["1"])
        #expect(late.pings == ["2"])
    }

    @Test("identity is the live object: a new object at a freed one's address is a stranger")
    func identity() {
        let delegates = MulticastDelegate<any PingDelegate>()
        var freedIdentifier: ObjectIdentifier?
        do {
            let gone = PingListener("gone")
            freedIdentifier = ObjectIdentifier(gone)
            delegates.add(gone)
        }
        // Allocate until the allocator hands out the freed address again (it usually does at once).
        var stranger = PingListener("stranger")
        for _ in 0..<1000 where ObjectIdentifier(stranger) != freedIdentifier { stranger = PingListener("stranger") }
        #expect(!delegates.contains(stranger))
        delegates.callAll { $0.ping("x") }
        #expect(stranger.pings == [])
    }
}
