import NMEAStream
import Testing
@testable import NMEAServer
import TestSupport

/// The server's device registry as pure decisions, with strings for devices and probes.
@Suite("Device registry", .mayBlock)
struct DeviceRegistryTests {
    typealias Registry = DeviceRegistry<String, String>

    @Test("ports plugged in: a receiver is served, a bridge listened to, anything else and a port named on the command line left")
    func decisions() {
        let named: Set<String> = ["/dev/ttyACM3"]
        let receiver = SerialPortInfo(path: "/dev/ttyACM0", vendorID: 0x1546, productID: 0x01a8, driver: "cdc_acm")
        let bridge = SerialPortInfo(path: "/dev/ttyUSB0", vendorID: 0x067b, productID: 0x2303, driver: "pl2303")
        let arduino = SerialPortInfo(path: "/dev/ttyACM1", vendorID: 0x2341, productID: 0x0043, driver: "cdc_acm")
        let namedReceiver = SerialPortInfo(path: "/dev/ttyACM3", vendorID: 0x1546, productID: 0x01a8, driver: "cdc_acm")
        #expect(Registry.decide(receiver, named: named) == .serve(discovered: receiver.reason + ": served"))
        #expect(Registry.decide(bridge, named: named) == .listen)
        #expect(Registry.decide(arduino, named: named) == .ignore)
        #expect(Registry.decide(namedReceiver, named: named) == .ignore)
    }

    @Test("devices served once each, named first then in the order they came; stopping one forgets it")
    func served() {
        var registry = Registry(named: [("/dev/ttyACM0", "a")])
        let added = registry.serve("/dev/ttyACM1") { "b" }
        #expect(added == "b")
        let addedTwice = registry.serve("/dev/ttyACM0") { "again" }
        #expect(addedTwice == nil, "a device served is not served twice")
        #expect(registry.devices == ["a", "b"])
        let stopped = registry.stopServing("/dev/ttyACM0")
        #expect(stopped == "a")
        let stoppedTwice = registry.stopServing("/dev/ttyACM0")
        #expect(stoppedTwice == nil)
        #expect(registry.devices == ["b"])
    }

    @Test("a candidate is listened to once; its decision counts unless it was unplugged meanwhile; one left alone stays so until unplugged")
    func candidates() {
        var registry = Registry()
        let listening = registry.listen(to: "/dev/ttyUSB0", with: "probe 1")
        #expect(listening)
        let listeningTwice = registry.listen(to: "/dev/ttyUSB0", with: "probe 2")
        #expect(!listeningTwice, "listened to already")
        let decisionCounts = registry.probeDecided("/dev/ttyUSB0")
        #expect(decisionCounts)
        registry.leaveAlone("/dev/ttyUSB0", reason: "no NMEA")
        let listeningLeftAlone = registry.listen(to: "/dev/ttyUSB0", with: "probe 3")
        #expect(!listeningLeftAlone, "left alone until unplugged")
        #expect(registry.leftAlone.map(\.reason) == ["no NMEA"])
        let probeUnplugged = registry.unplugged("/dev/ttyUSB0")
        #expect(probeUnplugged == nil)
        #expect(registry.leftAlone.isEmpty)
        let listeningAgain = registry.listen(to: "/dev/ttyUSB0", with: "probe 4")
        #expect(listeningAgain, "plugged in again: listened to again")
        let probeCancelled = registry.unplugged("/dev/ttyUSB0")
        #expect(probeCancelled == "probe 4", "unplugged while listened to: its probe is cancelled")
        let lateDecisionCounts = registry.probeDecided("/dev/ttyUSB0")
        #expect(!lateDecisionCounts, "and its decision no longer counts")
        _ = registry.serve("/dev/ttyUSB1") { "served" }
        let listeningServed = registry.listen(to: "/dev/ttyUSB1", with: "probe 5")
        #expect(!listeningServed, "a port served is not listened to")
        let listeningOther = registry.listen(to: "/dev/ttyUSB2", with: "probe 6")
        #expect(listeningOther)
        let probesAtStop = registry.takeProbes()
        #expect(probesAtStop == ["probe 6"])
        let probesAfterStop = registry.takeProbes()
        #expect(probesAfterStop.isEmpty)
        let decisionAfterStop = registry.probeDecided("/dev/ttyUSB2")
        #expect(!decisionAfterStop, "a decision after the stop does not count")
    }
}
