import Testing
import Signals
import Platform
import TestSupport

// The delegate bridge of `Signals.docc/Signals.md`, compiled and run.

struct ThermometerError: Error {}

protocol ThermometerDelegate: AnyObject {
    func thermometer(_ thermometer: Thermometer, didMeasure celsius: Double)
    func thermometer(_ thermometer: Thermometer, didFailWith error: ThermometerError)
}

/// A callback-based device stand-in: counts how often it was started and stopped.
final class Thermometer: @unchecked Sendable {
    static let running = Protected(0)
    static let starts = Protected(0)
    weak var delegate: ThermometerDelegate?
    static let current = Protected<Thermometer?>(nil)

    func start() {
        Self.running.withLock { $0 += 1 }
        Self.starts.withLock { $0 += 1 }
        Self.current.withLock { $0 = self }
    }

    func stop() {
        Self.running.withLock { $0 -= 1 }
        Self.current.withLock { $0 = nil }
    }

    func measure(_ celsius: Double) { delegate?.thermometer(self, didMeasure: celsius) }
}

final class ThermometerProxy: ThermometerDelegate, Sendable {
    let events = Subject<Double, ThermometerError>()

    func thermometer(_ thermometer: Thermometer, didMeasure celsius: Double) {
        events.next(celsius)
    }

    func thermometer(_ thermometer: Thermometer, didFailWith error: ThermometerError) {
        events.failed(error)
    }
}

@Suite("Documentation examples", .mayBlock, .serialized)
struct DocumentationExampleTests {
    @Test("a delegate proxy feeds a shared signal: one device for all subscribers, stopped after the last")
    func delegateBridge() {
        let temperatures = Signal<Double, ThermometerError> { observer in
            let thermometer = Thermometer()
            let proxy = ThermometerProxy()
            let forwarding = proxy.events.signal.observe(observer)
            thermometer.delegate = proxy
            thermometer.start()
            return BlockDisposable {
                thermometer.stop()
                forwarding.dispose()
                _ = proxy
            }
        }.share()
        let a = Recorder<Double, ThermometerError>()
        let b = Recorder<Double, ThermometerError>()
        let first = a.observe(temperatures)
        let second = b.observe(temperatures)
        #expect(Thermometer.running.withLock { $0 } == 1)
        Thermometer.current.withLock { $0 }?.measure(21.5)
        #expect(a.values == [21.5] && b.values == [21.5])
        first.dispose()
        #expect(Thermometer.running.withLock { $0 } == 1)
        second.dispose()
        #expect(Thermometer.running.withLock { $0 } == 0)
        #expect(Thermometer.starts.withLock { $0 } == 1)
    }

    @Test("the README example: the first observer opens, the last dispose closes")
    func readmeExample() {
        let log = Recorder<String, Never>()
        let scheduler = QueueScheduler()
        let ticks = Signal<Int, Never> { observer in
            log.record(.next("open"))
            let timer = Signal<Int, Never>.interval(.milliseconds(100), on: scheduler)
                .observe(next: { observer.next($0) })
            return BlockDisposable { timer.dispose(); log.record(.next("close")) }
        }.share()
        let a = ticks.observe(next: { _ in })
        let b = ticks.filter { $0.isMultiple(of: 2) }.observe(next: { _ in })
        #expect(log.values == ["open"])
        a.dispose()
        b.dispose()
        #expect(log.values == ["open", "close"])
    }
}
