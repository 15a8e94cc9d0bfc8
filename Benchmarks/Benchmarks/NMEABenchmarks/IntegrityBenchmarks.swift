import Benchmark
import NMEAStream

/// The integrity checks (``IntegrityCheck``) over every epoch of the corpus, decoded once
/// before: what `serve` (and `replay --integrity`) add to each epoch. Guards the checks' one
/// trick, a sky's strong signals kept in sorted arrays reused from sky to sky rather than in
/// hashed tables: the mallocs per iteration stay near the count of epochs flagged (each
/// flagged fix is written into a box of its own), not one or more per sky.
func integrityBenchmarks() {
    let corpus = Corpus.load(minimumBytes: 10_000_000)
    var epochs: [Epoch] = []
    let decoder = NMEADecoder()
    let keep: (NMEADecoder.Event) -> Void = { event in
        if case .epoch(let epoch) = event { epochs.append(epoch) }
    }
    corpus.bytes.withUnsafeBytes { decoder.feed($0, keep) }
    decoder.finish(keep)
    let all = epochs
    Benchmark("integrity checks, \(all.count) epochs of \(corpus.megabytes) MB (\(corpus.source))",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal], maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            var check = IntegrityCheck()
            var events = 0
            benchmark.startMeasurement()
            for var epoch in all { events &+= check.check(&epoch).count }
            benchmark.stopMeasurement()
            blackHole(events)
        }
    }
}
