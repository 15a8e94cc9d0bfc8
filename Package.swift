// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "nmeastream",
    products: [
        .library(name: "NMEAStream", targets: ["NMEAStream"]),
        .executable(name: "nmeastream", targets: ["nmeastream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Bytes in, sentences, fixes and gpsd JSON out. No I/O, no Foundation.
        .target(name: "NMEA"),
        // Devices, sources and the reader; re-exports NMEA.
        .target(name: "NMEAStream", dependencies: ["NMEA"]),
        .executableTarget(
            name: "nmeastream",
            dependencies: [
                "NMEAStream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "NMEATests",
            dependencies: ["NMEA"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "nmeastreamTests",
            // The tests run the built command; depending on it makes `swift test` build it.
            dependencies: ["NMEAStream", "nmeastream"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
