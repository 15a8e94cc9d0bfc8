#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// The manual pages the package installs, made by `packaging/manpages.py` from the command's
/// own description of itself, rendered by man-db as a reader sees them.
@Suite("Manual pages", .mayBlock, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man-db is not installed"))
struct ManPageTests {
    /// The pages made for the built command, by name, as man renders them at 80 columns, and
    /// what groff warned of while rendering them.
    static func rendered() throws -> [String: (text: String, warnings: String)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-man-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = Command.packageRoot.appendingPathComponent("packaging/manpages.py").path
        let made = spawnAndWait("/usr/bin/env", ["python3", script, Command.executable.path, folder, "November 29, 2026"])
        try #require(made == 0, "manpages.py failed")
        var pages: [String: (String, String)] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".1") {
            let out = folder + "/" + file + ".txt", err = folder + "/" + file + ".err"
            let shell = "LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 '\(folder)/\(file)' 2> '\(err)' | col -b > '\(out)'"
            _ = spawnAndWait("/bin/sh", ["-c", shell])
            pages[String(file.dropLast(2))] = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                                              (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        }
        return pages
    }

    @Test("one page for the command and one per subcommand, none for help; real sections; no warning, no word hyphenated, every example whole on its line")
    func pages() throws {
        let pages = try Self.rendered()
        let subcommands = ["read", "replay", "serve", "publish", "subscribe", "demo", "simulate", "list", "udev-rules", "ntrip"]
        #expect(Set(pages.keys) == Set(["nmeastream"] + subcommands.map { "nmeastream-" + $0 }), "\(pages.keys.sorted())")
        for (name, page) in pages {
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO"] {
                #expect(page.text.contains("\n" + section + "\n"), "\(name): no \(section)")
            }
            #expect(page.warnings.isEmpty, "\(name): \(page.warnings)")
            // A hyphen that man inserted (U+2010) cuts a word, an option or a path in two.
            #expect(!page.text.contains("\u{2010}"), "\(name): a word hyphenated across lines")
        }
        let serve = try #require(pages["nmeastream-serve"]?.text)
        for section in ["FILES", "ENVIRONMENT", "EXAMPLES"] { #expect(serve.contains("\n" + section + "\n"), "serve: no \(section)") }
        #expect(serve.contains("/etc/default/nmeastream") && serve.contains("gpsd(8)") && serve.contains("chronyd(8)"))
        // Every example of the help is on one line of the page, whole.
        for subcommand in subcommands {
            let help = try Command.run([subcommand, "--help"]).output
            let text = try #require(pages["nmeastream-" + subcommand]?.text)
            let lines = Set(text.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") })
            for example in ExamplesTests.examples(inHelp: help) {
                let words = example.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                #expect(lines.contains(words), "\(subcommand): \(example) is not whole on one line")
            }
        }
        let root = try #require(pages["nmeastream"]?.text)
        #expect(root.contains("nmeastream-serve(1)") && root.contains("EXIT STATUS"))
    }
}
