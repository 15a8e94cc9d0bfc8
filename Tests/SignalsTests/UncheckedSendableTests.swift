import Foundation
import Testing
import TestSupport

/// CONTRIBUTING lists every `@unchecked Sendable` type with its reason: the list and the
/// sources must name the same types.
@Suite("@unchecked Sendable", .mayBlock)
struct UncheckedSendableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("every @unchecked Sendable type in Sources is in CONTRIBUTING's list, and every type listed is one")
    func listed() throws {
        var inSources: Set<String> = []
        let files = FileManager.default.enumerator(at: Self.root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        let declaration = try Regex(#"(?:class|struct|enum|actor) ([A-Za-z_][A-Za-z0-9_]*)[^{]*@unchecked Sendable"#)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//"),
                      let match = line.firstMatch(of: declaration), let name = match.output[1].substring else { continue }
                inSources.insert(String(name))
            }
        }
        let contributing = try String(contentsOf: Self.root.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        let section = try #require(contributing.components(separatedBy: "| Why | Types |").dropFirst().first)
        var listed: Set<String> = []
        for row in section.split(separator: "\n").prefix(while: { $0.hasPrefix("|") }) {
            guard let types = row.split(separator: "|").last else { continue }
            for match in types.matches(of: try Regex(#"`([A-Za-z.]+)`"#)) {
                guard let name = match.output[1].substring else { continue }
                listed.insert(String(name.split(separator: ".").last!))
            }
        }
        #expect(inSources.count > 10, "the sources were read")
        #expect(inSources.subtracting(listed).isEmpty, "not in CONTRIBUTING's list: \(inSources.subtracting(listed).sorted())")
        #expect(listed.subtracting(inSources).isEmpty, "listed but no longer @unchecked: \(listed.subtracting(inSources).sorted())")
    }
}
