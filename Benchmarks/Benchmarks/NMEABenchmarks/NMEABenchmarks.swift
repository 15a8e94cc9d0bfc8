import Benchmark
import Foundation
import NMEAStream

/// The shared gpsd corpus concatenated and repeated to at least 50 MB, or, without
/// `../shared`, the project's own fixtures repeated (the figures are then not comparable).
let corpus: Corpus = Corpus.load(minimumBytes: 50_000_000)

/// The u-blox logs of the shared corpus (UBX, alone or beside NMEA) repeated to at least 20 MB,
/// or, without `../shared`, the project's own fixtures.
let ubxCorpus: Corpus = Corpus.load(minimumBytes: 20_000_000, folder: "gpsd-mixed") {
    $0.hasPrefix("ublox-") && !$0.contains("sirf")
}

/// Decodes `corpus` whole per iteration, every event looked at and counted.
func decodeBenchmark(_ name: String, _ corpus: Corpus) {
    Benchmark(name) { benchmark in
        for _ in benchmark.scaledIterations {
            let decoder = NMEADecoder()
            // Every event is looked at and counted. The counts live behind a pointer: variables
            // captured by a stored closure are checked for exclusive access at run time on each
            // event, a cost of the harness (about 5% here) that would be booked to the decoder.
            let counts = UnsafeMutablePointer<Int>.allocate(capacity: 4)
            counts.initialize(repeating: 0, count: 4)
            defer { counts.deallocate() }
            let handle: (NMEADecoder.Event) -> Void = { event in
                switch event {
                // Counted as the kinds were before epochs, without reading the payload.
                case .epoch: counts[0] &+= 1
                case .ubx: counts[1] &+= 1
                case .sentence: counts[2] &+= 1
                case .rejected: counts[3] &+= 1
                }
            }
            benchmark.startMeasurement()
            corpus.bytes.withUnsafeBytes { decoder.feed($0, handle) }
            decoder.finish(handle)
            benchmark.stopMeasurement()
            blackHole((counts[0], counts[1], counts[2], counts[3]))
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        maxDuration: .seconds(20),
        maxIterations: 10
    )

    // Parse and assemble: framer, decoders and epoch assembler, one core, every event handled.
    decodeBenchmark("decode \(corpus.megabytes) MB (\(corpus.source))", corpus)
    // The same for u-blox's binary protocol: UBX frames decoded and made into epochs.
    decodeBenchmark("decode UBX \(ubxCorpus.megabytes) MB (\(ubxCorpus.source))", ubxCorpus)

    pipelineBenchmarks()
    integrityBenchmarks()

    // Allocations on the common path: a warm decoder fed sentences that complete no epoch
    // and no satellite view (GGA, RMC and GSA of one time): the count per iteration is the
    // count per 30 000 sentences.
    let steady = Array(String(repeating: steadyCycle, count: 10_000).utf8)
    Benchmark("steady state, 30 000 sentences (mallocs per iteration = per 30 000 sentences)",
              configuration: .init(metrics: [.mallocCountTotal, .wallClock], maxIterations: 20)) { benchmark in
        let decoder = NMEADecoder()
        let handle: (NMEADecoder.Event) -> Void = { blackHole($0) }
        // Warm up: the first epoch learns the cycle; statistics tables are filled.
        Array(warmUp.utf8).withUnsafeBytes { decoder.feed($0, handle) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            steady.withUnsafeBytes { decoder.feed($0, handle) }
        }
        benchmark.stopMeasurement()
    }
}

/// The same epoch over and over: one fix per time change only, so nothing completes.
let steadyCycle = "$GPGGA,120000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,*5D\r\n"
    + "$GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5*33\r\n"
    + "$GPRMC,120000.00,A,5207.4074,N,00419.2659,E,0.0,,050624,,,A*75\r\n"
let warmUp = steadyCycle + steadyCycle

struct Corpus {
    var bytes: [UInt8]
    var source: String
    var megabytes: Int { bytes.count / 1_000_000 }

    /// The `.log` files of `../shared/corpus/FOLDER` that `include` takes, concatenated and
    /// repeated to at least `minimumBytes`.
    static func load(minimumBytes: Int, folder: String = "gpsd-nmea", include: (String) -> Bool = { _ in true }) -> Corpus {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shared = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/\(folder)")
        var one: [UInt8] = []
        var source = "../shared/corpus/\(folder)"
        if let names = try? FileManager.default.contentsOfDirectory(atPath: shared.path) {
            for name in names.sorted() where name.hasSuffix(".log") && include(name) {
                one += (try? Data(contentsOf: shared.appendingPathComponent(name))) ?? Data()
            }
        }
        if one.isEmpty {
            source = "project fixtures"
            let fixtures = root.appendingPathComponent("Tests/NMEATests/Fixtures")
            for name in ["sirf-cycle.nmea", "ublox-multi.nmea"] {
                one += (try? Data(contentsOf: fixtures.appendingPathComponent(name))) ?? Data()
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(minimumBytes + one.count)
        while bytes.count < minimumBytes { bytes += one }
        return Corpus(bytes: bytes, source: source)
    }
}
