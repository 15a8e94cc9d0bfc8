import Testing
@testable import NMEAServer
import Signals

/// The watch state machine of a served device, step by step, with no device, loop or client.
@Suite("Served device state machine")
struct ServedDeviceStateMachineTests {
    final class Watcher {
        var wantsRaw = false
    }

    /// A disposable that counts its disposals.
    final class Probe: Disposable, @unchecked Sendable {
        var disposed = 0
        var isDisposed: Bool { disposed > 0 }
        func dispose() { disposed += 1 }
    }

    @Test("the first watcher opens it, once; others join; the last leaving lets go of its subscription, and the next watcher opens it again at once")
    func openAndClose() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher(), b = Watcher()
        let unwatchedOpener = machine.open(with: Probe())
        #expect(unwatchedOpener == nil, "nobody watches: not opened")
        machine.attach(a)
        let subscription = Probe()
        let opener = machine.open(with: subscription)
        #expect(opener === a)
        let secondOpener = machine.open(with: Probe())
        #expect(secondOpener == nil, "never opened twice")
        machine.attach(b)
        let firstLeft = machine.detach(a)
        #expect(firstLeft.isEmpty)
        let leftAgain = machine.detach(a)
        #expect(leftAgain.isEmpty, "a watcher that left leaves no more")
        let lastLeft = machine.detach(b)
        #expect(lastLeft.count == 1 && lastLeft.first === subscription)
        #expect(!machine.isOpen)
        machine.attach(a)
        // The monitor opens the device once the last one is released: nothing waits here.
        let openerAfterClose = machine.open(with: Probe())
        #expect(openerAfterClose === a)
    }

    @Test("sentences and bytes are subscribed to only while open and wanted, and let go first when it closes")
    func raw() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher()
        a.wantsRaw = true
        machine.attach(a)
        guard case .none = machine.updateRaw(wants: \.wantsRaw) else { throw Failure("subscribed while closed") }
        let subscription = Probe()
        _ = machine.open(with: subscription)
        guard case .subscribe(let raw) = machine.updateRaw(wants: \.wantsRaw) else { throw Failure("not subscribed") }
        guard case .none = machine.updateRaw(wants: \.wantsRaw) else { throw Failure("subscribed twice") }
        a.wantsRaw = false
        guard case .unsubscribe(let gone) = machine.updateRaw(wants: \.wantsRaw), gone === raw else { throw Failure("not let go") }
        a.wantsRaw = true
        guard case .subscribe(let again) = machine.updateRaw(wants: \.wantsRaw) else { throw Failure("not subscribed again") }
        let disposals = machine.detach(a)
        #expect(disposals.count == 2 && disposals[0] === again && disposals[1] === subscription, "raw first: the main one closes the device")
    }

    @Test("a loss tells the watchers once, and again only after a fix; a stale subscription's loss is ignored; they are tried again")
    func loss() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher()
        machine.attach(a)
        let first = Probe()
        _ = machine.open(with: first)
        let staleLoss = machine.lose(Probe())
        #expect(staleLoss.disposals.isEmpty, "not the device's subscription")
        let loss = machine.lose(first)
        #expect(loss.disposals.first === first && loss.tell.count == 1 && loss.retry)
        let second = Probe()
        let retriedOpener = machine.open(with: second)
        #expect(retriedOpener === a, "tried again")
        let again = machine.lose(second)
        #expect(again.tell.isEmpty && again.retry, "told once")
        let third = Probe()
        _ = machine.open(with: third)
        machine.heard()
        let lossAfterFix = machine.lose(third)
        #expect(lossAfterFix.tell.count == 1, "told again after it came back")
        let lastLeftLost = machine.detach(a)
        #expect(lastLeftLost.isEmpty, "lost: nothing left to dispose")
        let fourth = Probe()
        let unwatchedOpener = machine.open(with: fourth)
        #expect(unwatchedOpener == nil)
        let unwatchedLoss = machine.lose(fourth)
        #expect(!unwatchedLoss.retry)
    }

    @Test("retired: closed, its watchers told unless they were, other subscribers let go; never opened again")
    func retire() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher()
        machine.attach(a)
        let subscription = Probe(), other = Probe()
        _ = machine.open(with: subscription)
        let kept = machine.keep(other)
        #expect(kept)
        let (disposals, tell) = machine.retire()
        #expect(disposals.count == 1 && disposals[0] === subscription)
        #expect(tell.count == 1 && tell[0] === a)
        let others = machine.takeOthers()
        #expect(others.first === other)
        let keptWhenRetired = machine.keep(Probe())
        #expect(!keptWhenRetired, "kept no more: dispose at once")
        machine.attach(a)
        let openerWhenRetired = machine.open(with: Probe())
        #expect(openerWhenRetired == nil)
        let retiredAgain = machine.retire()
        #expect(retiredAgain.tell.isEmpty)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
