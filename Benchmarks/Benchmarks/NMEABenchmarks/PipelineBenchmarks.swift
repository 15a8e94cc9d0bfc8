import Benchmark
import Dispatch
import Foundation
import NMEAStream

/// The corpus at about 5 MB: the pipeline's stages side by side on the same bytes.
let pipelineCorpus: Corpus = Corpus.load(minimumBytes: 5_000_000)

/// The same bytes through each stage of the pipeline, every fix delivered: the decoder alone,
/// `NMEAReader` with one delegate, and `GPSMonitor` with 1 and 100 subscribers (lossless, as
/// for any finite source). The ratios of their times are the cost of each layer.
func pipelineBenchmarks() {
    let bytes = pipelineCorpus.bytes
    let label = "\(pipelineCorpus.megabytes) MB (\(pipelineCorpus.source))"
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
                                                timeUnits: .milliseconds, maxDuration: .seconds(20), maxIterations: 10)

    Benchmark("pipeline: decoder alone, \(label)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let decoder = NMEADecoder()
            var fixes = 0
            // Counted without reading the fix, as the fixes were counted before epochs.
            let handle: (NMEADecoder.Event) -> Void = { if case .epoch(let epoch) = $0, epoch.hasFix { fixes &+= 1 } }
            bytes.withUnsafeBytes { decoder.feed($0, handle) }
            decoder.finish(handle)
            blackHole(fixes)
        }
    }

    Benchmark("pipeline: NMEAReader with one delegate, \(label)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let reader = NMEAReader(source: .bytes(bytes))
            let counter = FixCounter()
            reader.delegate = counter
            reader.start()
            counter.finished.wait()
            blackHole(counter.fixes)
        }
    }

    for subscribers in [1, 100] {
        Benchmark("pipeline: GPSMonitor with \(subscribers) subscriber\(subscribers == 1 ? "" : "s"), \(label)",
                  configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let gps = GPSMonitor(source: .bytes(bytes), opening: .onConnect)
                let ended = DispatchSemaphore(value: 0)
                let subscriptions = (0..<subscribers).map { _ in
                    gps.fixes.observe(next: { blackHole($0) }, failed: { _ in ended.signal() }, completed: { ended.signal() })
                }
                let connection = gps.connect()
                for _ in 0..<subscribers { ended.wait() }
                subscriptions.forEach { $0.dispose() }
                connection.dispose()
            }
        }
    }
}

/// Counts fixes and says when the reader is done.
final class FixCounter: NMEAReaderDelegate, @unchecked Sendable {
    var fixes = 0
    let finished = DispatchSemaphore(value: 0)
    func reader(_ reader: NMEAReader, didUpdate fix: Fix) { fixes &+= 1 }
    func readerDidFinish(_ reader: NMEAReader) { finished.signal() }
    func reader(_ reader: NMEAReader, didFailWith error: GPSError) { finished.signal() }
}
