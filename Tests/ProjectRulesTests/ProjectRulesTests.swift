import Foundation
import Testing

/// The rules of CONTRIBUTING that the build keeps: each test reads the sources and fails on a
/// file that breaks one. Where the tree still holds old breaches, they are listed here with
/// their count, and the list may only shrink: a new breach fails, and so does a listed file
/// that was mended without its entry going.
@Suite("Project rules")
struct ProjectRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A `.swift` file of the package: its path (relative to the package), its lines outside
    /// comments, and how many lines it has in all.
    struct SourceFile {
        var path: String
        var code: [Substring]
        var lineCount: Int
    }

    /// Every `.swift` file of `Sources` and `Tests`, read once for all the rules.
    static let files: [SourceFile] = ["Sources", "Tests"].flatMap { folder -> [SourceFile] in
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [SourceFile] = []
        while let file = walker.nextObject() as? URL {
            guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            files.append(SourceFile(path: folder + "/" + file.path.dropFirst(base.path.count + 1),
                                    code: lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") },
                                    lineCount: lines.count - 1))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Every `.swift` file under `folder`.
    static func swiftFiles(under folder: String) -> [SourceFile] {
        files.filter { $0.path.hasPrefix(folder + "/") }
    }

    /// The files (with their count of matching lines) where `pattern` matches, leaving out
    /// those under `exempt`.
    static func breaches(of pattern: String, in folders: [String], exempt: [String] = []) throws -> [String: Int] {
        let regex = try Regex(pattern)
        var found: [String: Int] = [:]
        for folder in folders {
            for file in swiftFiles(under: folder) where !exempt.contains(where: { file.path.hasPrefix($0) }) {
                let count = file.code.count { $0.contains(regex) }
                if count > 0 { found[file.path] = count }
            }
        }
        return found
    }

    static func describe(_ files: [String: Int]) -> String {
        files.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
    }

    @Test("only Platform imports the C library: no other target imports Glibc, Musl, Darwin or CPlatform")
    func platformImports() throws {
        let found = try Self.breaches(of: #"^\s*(@_exported\s+|@testable\s+)?import\s+(Glibc|Musl|Darwin|CPlatform)\b|canImport\((Glibc|Musl|Darwin)\)"#,
                                      in: ["Sources"], exempt: ["Sources/Platform/"])
        #expect(found.isEmpty, "import the C library outside Sources/Platform: \(Self.describe(found))")
    }

    @Test("one lock type: Platform's Lock (and Protected, Condition); no Synchronization.Mutex, NSLock or raw pthread mutex elsewhere, tests included, where ThreadSanitizer would not see it")
    func oneLockType() throws {
        let found = try Self.breaches(of: #"\bMutex\s*[<(]|\bNS(Recursive)?Lock\b|\bNSCondition\b|os_unfair_lock|pthread_(mutex|rwlock|cond)_"#,
                                      in: ["Sources", "Tests"], exempt: ["Sources/Platform/", "Tests/ProjectRulesTests/"])
        #expect(found.isEmpty, "a second lock type: \(Self.describe(found))")
    }

    @Test("no thread sleeps outside Platform's ThreadPause in the sources, and none in the Signals tests, which run on virtual time")
    func noSleeps() throws {
        let found = try Self.breaches(of: #"\b(usleep|nanosleep|sleep)\(|Thread\.sleep|Task\.sleep"#,
                                      in: ["Sources", "Tests/SignalsTests"], exempt: ["Sources/Platform/"])
        #expect(found.isEmpty, "sleeps: \(Self.describe(found))")
    }

    @Test("the server runs its work and timers on its event loops (ServerLoops), not on DispatchQueue.global")
    func serverOnEventLoops() throws {
        let found = try Self.breaches(of: #"DispatchQueue\.global"#, in: ["Sources/NMEAServer"])
        #expect(found.isEmpty, "DispatchQueue.global in the server: \(Self.describe(found))")
    }

    /// The public calls that wait for work of their own object's queue, from a caller's thread:
    /// an NTRIP client's `stop()` and a virtual receiver's `close()` (neither is a receiver's
    /// runtime, and neither is called on an event loop).
    static let queueWaitsAllowed = [
        "Sources/NMEAStream/Network/NTRIPClient.swift",
        "Sources/NMEAStream/Serial/VirtualReceiver.swift",
    ]

    @Test("no thread enters another's queue synchronously in the receivers' runtime or the server: a reader runs on its executor (a queue of its own, or its device's event loop), and the others hand it work")
    func noSynchronousQueueEntry() throws {
        let found = try Self.breaches(of: #"\.sync\s*(\(|\{)"#, in: ["Sources/NMEAStream", "Sources/NMEAServer", "Sources/TimeService"],
                                      exempt: Self.queueWaitsAllowed)
        #expect(found.isEmpty, "queue.sync: \(Self.describe(found))")
    }

    /// The two Dispatch sources on a descriptor that remain: each is made once per process
    /// and lives as long as it (a udev monitor, a virtual receiver's terminal).
    static let descriptorSourcesAllowed = [
        "Sources/NMEAStream/Discovery/Hotplug.swift",
        "Sources/NMEAStream/Serial/VirtualReceiver.swift",
    ]

    @Test("no Dispatch read or write source on a descriptor that comes and goes: devices and sockets are watched by SwiftNIO's loops (libdispatch's epoll can crash when such sources churn, swift-corelibs-libdispatch issue 949)")
    func noChurningDescriptorSources() throws {
        let found = try Self.breaches(of: #"make(Read|Write)Source\("#, in: ["Sources", "Tests"],
                                      exempt: Self.descriptorSourcesAllowed + ["Tests/ProjectRulesTests/"])
        #expect(found.isEmpty, "Dispatch sources on descriptors: \(Self.describe(found))")
    }

    /// The test targets that use TestSupport: their tests wait on the outside (terminals,
    /// sockets, processes), most of them blocking a thread while they do.
    static let waitingTestTargets = ["NMEATests", "FleetTests", "TimeServiceTests", "NMEAServerTests", "NMEAStreamTests",
                                     "SignalsTests", "nmeastreamTests"].map { "Tests/" + $0 }

    @Test("every suite of a target that waits on the outside runs on threads of its own (.mayBlock), not on Swift's cooperative pool, which two blocked tests fill on two cores; none has a time limit, which would count its wait for a slot")
    func suitesMayBlock() throws {
        let unmarked = try Self.breaches(of: #"^@Suite\((?![^\n]*\.mayBlock)"#, in: Self.waitingTestTargets)
        #expect(unmarked.isEmpty, "suites without .mayBlock: \(Self.describe(unmarked))")
        let limited = try Self.breaches(of: #"\.timeLimit\("#, in: Self.waitingTestTargets)
        #expect(limited.isEmpty, "time limits: \(Self.describe(limited))")
    }

    /// The size past which a file is a hub to split: 400 lines (with comments), about what a
    /// reader holds in mind at once, and what every file but the listed ones keeps. A listed
    /// file may shrink (then its entry goes or comes down) but not grow.
    static let lineLimit = 400
    static let largeFilesAllowed: [String: Int] = [:]

    @Test("no source file past 400 lines but the listed hubs, none of which grows")
    func fileSizes() throws {
        #expect(Self.swiftFiles(under: "Sources").count > 100, "the sources were read")
        var large: [String: Int] = [:]
        for file in Self.swiftFiles(under: "Sources") where file.lineCount > Self.lineLimit { large[file.path] = file.lineCount }
        let grown = large.filter { file, lines in Self.largeFilesAllowed[file].map { lines > $0 } ?? true }
        let mended = Self.largeFilesAllowed.filter { (large[$0.key] ?? 0) < $0.value }
        #expect(grown.isEmpty, "past \(Self.lineLimit) lines, or grown past its entry: \(Self.describe(grown))")
        #expect(mended.isEmpty, "shrunk: bring its entry down (or remove it): now \(Self.describe(large.filter { mended[$0.key] != nil })), listed \(Self.describe(mended))")
    }
}
