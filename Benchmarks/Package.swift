// swift-tools-version: 6.2
import PackageDescription

// Benchmarks live in their own package so that the library and its tests never build the
// benchmark harness. Run from this folder: `swift package benchmark` (see README.md here).
let package = Package(
    name: "nmeastream-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "nmeastream", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "NMEABenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NMEAStream", package: "nmeastream"),
            ],
            path: "Benchmarks/NMEABenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ReaderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NMEAStream", package: "nmeastream"),
            ],
            path: "Benchmarks/ReaderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SignalsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Signals", package: "nmeastream"),
            ],
            path: "Benchmarks/SignalsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
