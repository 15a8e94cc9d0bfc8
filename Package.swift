// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "nmeastream",
    products: [
        .library(name: "NMEAStream", targets: ["NMEAStream"]),
        // The reactive core on its own, and its virtual-time scheduler for tests.
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "SignalsTesting", targets: ["SignalsTesting"]),
        // The gpsd-protocol server and its live page, and the time service, to embed.
        .library(name: "NMEAServer", targets: ["NMEAServer"]),
        .library(name: "TimeService", targets: ["TimeService"]),
        .library(name: "Fleet", targets: ["Fleet"]),
        .executable(name: "nmeastream", targets: ["nmeastream"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The operating system as the package uses it, and the only target that imports it:
        // system calls with a typed Errno, the one lock type, clocks, sleeping, libm.
        .target(name: "Platform", dependencies: ["CPlatform"]),
        // Bytes in; sentences, epochs and fixes out. No I/O, no Foundation.
        .target(name: "NMEA", dependencies: ["Platform"]),
        // Fixes and satellite views as gpsd JSON, GPX and CSV. No I/O.
        .target(name: "NMEARendering", dependencies: ["NMEA"]),
        // Signals, disposables, subjects, multicast with reference counting. Knows no GPS.
        .target(name: "Signals", dependencies: ["Platform"]),
        .target(name: "SignalsTesting", dependencies: ["Signals"]),
        // The libudev C API: device discovery and hotplug.
        // gpsd's client protocol: requests, one client's session, the replies. No I/O.
        .target(name: "GPSDProtocol", dependencies: ["NMEA", "NMEARendering"]),
        // NTRIP, the protocol of RTK correction casters: URLs, requests, answers (chunked
        // included) and sourcetables. No I/O.
        .target(name: "NTRIP"),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // The C library as the device code uses it: system headers, fixed-arity wrappers for
        // what Swift cannot import, and the pseudo-terminal calls (shared with the tests).
        .target(name: "CPlatform"),
        // Devices, discovery, sources and the reader, the NTRIP client; re-exports NMEA, NMEARendering, NTRIP and Signals.
        // Devices are read on SwiftNIO's event loops (NIOPosix's epoll), not on Dispatch sources.
        .target(
            name: "NMEAStream",
            dependencies: [
                "NMEA", "NMEARendering", "NTRIP", "Signals", "CUdev", "Platform",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The gpsd-protocol server: listeners and client connections on SwiftNIO; one
        // subscription to a device's GPSMonitor while any client watches it, each epoch
        // rendered once and handed to every watcher. The live web page: NIO's HTTP/1.1 and
        // WebSocket modules, the page carried in the binary.
        .target(
            name: "NMEAServer",
            dependencies: [
                "NMEAStream", "GPSDProtocol", "TimeService", "Platform",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            // The page's files, carried in the binary by the EmbedPage plugin.
            exclude: ["Web/Page/index.html", "Web/Page/style.css", "Web/Page/app.js", "Web/Page/favicon.svg"],
            plugins: ["EmbedPage"]
        ),
        // Text files as Swift string constants, at build time (the page's HTML, CSS and JS).
        .executableTarget(name: "EmbedFiles"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["EmbedFiles"]),
        // Time service: receivers as reference clocks for chrony (SOCK samples of serial time
        // and of PPS), each feed one more subscriber of a device's GPSMonitor.
        .target(name: "TimeService", dependencies: ["NMEAStream", "Platform"]),
        // Eclipse's libmosquitto (headers from libmosquitto-dev), and fleets over MQTT on it:
        // a publisher of a device's fixes with store and forward, and a subscriber. Loaded by
        // the first connection, not linked: the commands that speak no MQTT do not map it and
        // OpenSSL with it (Benchmarks/README.md, "Resident memory").
        .target(name: "CMosquitto", dependencies: ["CPlatform"]),
        // SQLite (headers from libsqlite3-dev), for the publisher's store-and-forward queue on
        // disk; loaded by the first database opened, in the same way.
        .target(name: "CSQLite", dependencies: ["CPlatform"]),
        .target(name: "Fleet", dependencies: ["NMEAStream", "CMosquitto", "CSQLite", "Platform"]),
        .executableTarget(
            name: "nmeastream",
            dependencies: [
                "NMEAStream",
                "NMEAServer",
                "TimeService",
                "Fleet",
                "GPSDProtocol",
                "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Resident memory (Benchmarks/README.md, "Resident memory"): linked by lld with
            // packed relative relocations (DT_RELR, glibc 2.36) instead of 1.3 MB of RELA
            // entries read at every start, and without exporting the program's 14,000 symbols
            // to the dynamic table (the toolchain passes -export-dynamic for
            // run-time lookups this command never makes).
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                           "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "NMEATests",
            dependencies: ["NMEA", "NMEARendering", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // Pseudo-terminals standing in for serial devices, and the shared corpus when it is
        // beside the project: for the tests of the core, the reader and the command.
        .target(
            name: "TestSupport",
            dependencies: ["CPlatform", "Platform", "NMEA", "Signals"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "FleetTests",
            dependencies: ["Fleet", "NMEAStream", "TestSupport"]
        ),
        .testTarget(
            name: "TimeServiceTests",
            dependencies: ["TimeService", "NMEAStream", "TestSupport"]
        ),
        .testTarget(
            name: "NMEAServerTests",
            dependencies: ["NMEAServer", "NMEAStream", "TestSupport",
                           .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOWebSocket", package: "swift-nio")]
        ),
        .testTarget(name: "NTRIPTests", dependencies: ["NTRIP"]),
        // CONTRIBUTING's rules, read from the sources: one lock type, the C library only in
        // Platform, no sleeps, the server on its event loops, no hub past its size.
        .testTarget(name: "ProjectRulesTests"),
        .testTarget(
            name: "GPSDProtocolTests",
            dependencies: ["GPSDProtocol", "NMEA", "NMEARendering"]
        ),
        .testTarget(
            name: "NMEAStreamTests",
            dependencies: ["NMEAStream", "SignalsTesting", "TestSupport"]
        ),
        .testTarget(
            name: "SignalsTests",
            dependencies: ["Signals", "SignalsTesting", "TestSupport"]
        ),
        .testTarget(
            name: "nmeastreamTests",
            // The tests run the built command; depending on it makes `swift test` build it.
            dependencies: ["NMEAStream", "nmeastream", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
