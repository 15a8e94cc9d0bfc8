// swift-tools-version: 6.2
import PackageDescription

// The decoder's libFuzzer target, in a package of its own: it builds only with
// `-sanitize=fuzzer` (libFuzzer supplies the driver it calls). Run it with `Tests/fuzz`.
let package = Package(
    name: "nmeastream-fuzzing",
    dependencies: [
        .package(name: "nmeastream", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: [.product(name: "NMEAStream", package: "nmeastream")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
