// swift-tools-version: 6.2
import PackageDescription

// The decoder's, the fleet reports' and simulate --control's libFuzzer targets, in a package of their own: it builds only with
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
        .executableTarget(
            name: "ControlFuzzer",
            dependencies: [.product(name: "NMEAStream", package: "nmeastream")]
        ),
        .executableTarget(
            name: "ReportFuzzer",
            dependencies: [.product(name: "Fleet", package: "nmeastream"), .product(name: "NMEAStream", package: "nmeastream")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
