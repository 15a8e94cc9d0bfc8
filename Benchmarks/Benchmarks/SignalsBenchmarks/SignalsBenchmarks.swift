import Benchmark
import Signals
import Synchronization

// Every benchmark here does one million of what it measures per iteration, and reports
// milliseconds: so each figure reads directly as nanoseconds per delivery (or per pair).
let million = 1_000_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .milliseconds,
        maxDuration: .seconds(10),
        maxIterations: 20
    )

    // The reference: the same deliveries as plain closure calls from an array, no locks.
    for observers in [1, 10, 1000] {
        Benchmark("reference: closure calls, \(observers) receivers (ms = ns per call)") { benchmark in
            let counter = Counter()
            let handlers: [@Sendable (Int) -> Void] = (0..<observers).map { _ in { counter.add($0) } }
            benchmark.startMeasurement()
            for event in 0..<(million / observers) {
                for handler in handlers { handler(event) }
            }
            benchmark.stopMeasurement()
            blackHole(counter.total)
        }
    }

    // A signal whose body hands its observer out (as a device reader's does), shared with
    // share() to N observers: what one value costs per observer, from the body's send to each
    // observer's handler.
    for observers in [1, 10, 1000] {
        Benchmark("share() to \(observers) observers (ms = ns per observer per event)") { benchmark in
            let source = Mutex<Observer<Int, Never>?>(nil)
            let shared = Signal<Int, Never> { observer in
                source.withLock { $0 = observer }
                return nil
            }.share()
            let counter = Counter()
            let subscriptions = (0..<observers).map { _ in shared.observe(next: { counter.add($0) }) }
            let upstream = source.withLock { $0 }!
            benchmark.startMeasurement()
            for event in 0..<(million / observers) { upstream.next(event) }
            benchmark.stopMeasurement()
            for subscription in subscriptions { subscription.dispose() }
            blackHole(counter.total)
        }
    }

    // Subscribe and dispose while another observer keeps the connection open.
    Benchmark("subscribe + dispose on a connected share() (ms = ns per pair)") { benchmark in
        let upstream = Subject<Int, Never>()
        let shared = upstream.signal.share()
        let keeper = shared.observe(next: { _ in })
        benchmark.startMeasurement()
        for _ in 0..<million { shared.observe(next: { _ in }).dispose() }
        benchmark.stopMeasurement()
        keeper.dispose()
    }

    // Subscribe and dispose as the only observer: each pair connects and disconnects.
    Benchmark("subscribe + dispose, connecting each time (ms = ns per pair)") { benchmark in
        let upstream = Subject<Int, Never>()
        let shared = upstream.signal.share()
        benchmark.startMeasurement()
        for _ in 0..<million { shared.observe(next: { _ in }).dispose() }
        benchmark.stopMeasurement()
    }
}

/// A sink the handlers write to, so the optimiser cannot drop the deliveries. Handlers of one
/// subject run one at a time, so no lock is needed.
final class Counter: @unchecked Sendable {
    private(set) var total = 0
    @inline(never) func add(_ value: Int) { total &+= value }
}
