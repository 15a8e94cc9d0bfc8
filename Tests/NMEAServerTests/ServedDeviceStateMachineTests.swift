import GPSDProtocol
import Testing
@testable import NMEAServer
import Signals
import TestSupport

/// The watch state machine of a served device, step by step, with no device, loop or client.
@Suite("Served device state machine", .mayBlock)
struct ServedDeviceStateMachineTests {
    final class Watcher {}

    /// A disposable that counts its disposals.
    final class Probe: Disposable, @unchecked Sendable {
        var disposed = 0
        var isDisposed: Bool { disposed > 0 }
        func dispose() { disposed += 1 }
    }

    @Test("the server stops: its subscription let go, and it never opens again, for a watcher that comes late or a retry")
    func closedForGood() {
        var machine = ServedDeviceStateMachine<Watcher>()
        let watcher = Watcher()
        machine.attach(watcher, streams: .reports)
        let subscription = Probe()
        _ = machine.open(with: subscription)
        let disposals = machine.closeNow()
        #expect(disposals.count == 1 && disposals.first === subscription)
        machine.attach(Watcher(), streams: .reports)
        let late = machine.open(with: Probe())
        #expect(late == nil && !machine.isOpen)
        let kept = machine.keep(Probe())
        #expect(!kept, "another subscriber's subscription is not kept either")
    }

    @Test("the first watcher opens it, once; others join; the last leaving lets go of its subscription, and the next watcher opens it again at once")
    func openAndClose() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher(), b = Watcher()
        let unwatchedOpener = machine.open(with: Probe())
        #expect(unwatchedOpener == nil, "nobody watches: not opened")
        machine.attach(a, streams: .reports)
        let subscription = Probe()
        let opener = machine.open(with: subscription)
        #expect(opener === a)
        let secondOpener = machine.open(with: Probe())
        #expect(secondOpener == nil, "never opened twice")
        machine.attach(b, streams: .reports)
        let firstLeft = machine.detach(a)
        #expect(firstLeft.isEmpty)
        let leftAgain = machine.detach(a)
        #expect(leftAgain.isEmpty, "a watcher that left leaves no more")
        let lastLeft = machine.detach(b)
        #expect(lastLeft.count == 1 && lastLeft.first === subscription)
        #expect(!machine.isOpen)
        machine.attach(a, streams: .reports)
        // The monitor opens the device once the last one is released: nothing waits here.
        let openerAfterClose = machine.open(with: Probe())
        #expect(openerAfterClose === a)
    }

    @Test("sentences and bytes are subscribed to only while open and some watcher is sent them, and let go first when it closes")
    func raw() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher()
        machine.attach(a, streams: [.reports, .sentences])
        guard case .none = machine.updateRaw() else { throw Failure("subscribed while closed") }
        let subscription = Probe()
        _ = machine.open(with: subscription)
        guard case .subscribe(let raw) = machine.updateRaw() else { throw Failure("not subscribed") }
        guard case .none = machine.updateRaw() else { throw Failure("subscribed twice") }
        machine.attach(a, streams: .reports)
        guard case .unsubscribe(let gone) = machine.updateRaw(), gone === raw else { throw Failure("not let go") }
        machine.attach(a, streams: .bytes)
        guard case .subscribe(let again) = machine.updateRaw() else { throw Failure("not subscribed again") }
        let disposals = machine.detach(a)
        #expect(disposals.count == 2 && disposals[0] === again && disposals[1] === subscription, "raw first: the main one closes the device")
    }

    @Test("each report goes to the watchers sent its stream, as each last attached; one that watches with no stream gets none and keeps it open")
    func streams() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let json = Watcher(), nmea = Watcher(), both = Watcher(), quiet = Watcher()
        machine.attach(json, streams: .reports)
        machine.attach(nmea, streams: .sentences)
        machine.attach(both, streams: [.reports, .bytes])
        machine.attach(quiet, streams: [])
        func sent(_ streams: WatchedStreams) -> Set<ObjectIdentifier> { Set(machine.watchers(sent: streams).map(ObjectIdentifier.init)) }
        #expect(sent(.reports) == [ObjectIdentifier(json), ObjectIdentifier(both)])
        #expect(sent(.sentences) == [ObjectIdentifier(nmea)])
        #expect(sent(.bytes) == [ObjectIdentifier(both)])
        #expect(machine.watchers.count == 4)
        machine.attach(nmea, streams: .reports)
        #expect(sent(.reports).count == 3 && sent(.sentences).isEmpty, "attached again: sent what it asked for last")
        _ = machine.open(with: Probe())
        for watcher in [json, nmea, both] { #expect(machine.detach(watcher).isEmpty) }
        #expect(machine.isOpen, "a watcher with no stream still watches")
    }

    @Test("gpsd's rule: json sends reports; nmea or raw 1 the sentences; raw 2 the bytes instead; nothing from a device not watched")
    func policyStreams() throws {
        var policy = WatchPolicy()
        #expect(policy.streams(from: "/dev/ttyACM0") == nil, "not watching")
        try policy.apply(["json": .bool(true)])
        #expect(policy.streams(from: "/dev/ttyACM0") == .reports)
        try policy.apply(["json": .bool(false), "nmea": .bool(true)])
        #expect(policy.streams(from: "/dev/ttyACM0") == .sentences)
        try policy.apply(["raw": .number(2)])
        #expect(policy.streams(from: "/dev/ttyACM0") == .bytes, "raw 2 takes the place of the sentences")
        try policy.apply(["nmea": .bool(false), "raw": .number(1), "device": .string("/dev/ttyUSB0")])
        #expect(policy.streams(from: "/dev/ttyUSB0") == .sentences)
        #expect(policy.streams(from: "/dev/ttyACM0") == nil, "another device")
        try policy.apply(["enable": .bool(true), "raw": .number(0)])
        #expect(policy.streams(from: "/dev/ttyACM0") == [], "watching, with no stream")
    }

    @Test("a loss tells the watchers once, and again only after a fix; a stale subscription's loss is ignored; they are tried again")
    func loss() throws {
        var machine = ServedDeviceStateMachine<Watcher>()
        let a = Watcher()
        machine.attach(a, streams: .reports)
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
        machine.attach(a, streams: .reports)
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
        machine.attach(a, streams: .reports)
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
