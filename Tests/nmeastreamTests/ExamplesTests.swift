#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// Every example command line of the help texts, the README and its guides, run as
/// written: each must be taken as the command line it is (no usage error), whatever it then
/// finds (no receiver here, no broker at broker.local).
@Suite("Examples in the help and the README", .mayBlock)
struct ExamplesTests {
    /// The subcommands whose help has examples, as `nmeastream --help` lists them.
    static func subcommands() throws -> [String] {
        let help = try Command.run(["--help"]).output
        return help.split(separator: "\n").drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The lines under "Examples:" in `help`.
    static func examples(inHelp help: String) -> [String] {
        help.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0 != "Examples:" }.dropFirst()
            .prefix { $0.hasPrefix("  ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
    }

    /// The commands of the README and its guides (`Documentation/`): in code blocks, the lines
    /// of a shell session that start with `$ nmeastream`, and in `sh` blocks (what a reader
    /// pastes) the lines that start with `nmeastream`.
    static func examplesInReadme() throws -> [String] {
        let root = Command.packageRoot
        let guides = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Documentation").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
        var found: [String] = []
        for file in ["README.md"] + guides {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var language: String?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("```") {
                    language = language == nil ? String(text.dropFirst(3)) : nil
                    continue
                }
                guard let language else { continue }
                if text.hasPrefix("$ nmeastream") {
                    found.append(String(text.dropFirst(2)))
                } else if language == "sh", text.hasPrefix("nmeastream ") {
                    found.append(text)
                }
            }
        }
        return found
    }

    @Test("the help's examples are never broken across lines (help is 80 columns wide when not on a terminal)")
    func examplesFitTheTerminal() throws {
        for subcommand in try Self.subcommands() {
            let help = try Command.run([subcommand, "--help"]).output
            let block = help.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "Examples:" }.dropFirst()
                .prefix { !$0.isEmpty }
            // A line of the block that does not start as an example is one cut in two.
            #expect(block.allSatisfy { $0.hasPrefix("  ") }, "\(subcommand): \(block.joined(separator: "\n"))")
        }
    }

    @Test("each example runs as written: no usage error, no option the command does not know")
    func examplesRun() throws {
        var examples: [String] = []
        for subcommand in try Self.subcommands() {
            examples += Self.examples(inHelp: try Command.run([subcommand, "--help"]).output)
        }
        examples += try Self.examplesInReadme()
        // Commands that change the system (udev rules installed with sudo) are not run.
        examples = examples.filter { !$0.contains("sudo") }
        #expect(examples.count >= 25, "\(examples)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The log the examples name.
        try FileManager.default.copyItem(atPath: Command.fixture("sirf-cycle.nmea"), toPath: folder.appendingPathComponent("drive.nmea").path)
        let binaries = Command.executable.deletingLastPathComponent().path
        let marker = UUID().uuidString
        for example in examples {
            let errors = folder.appendingPathComponent("stderr").path
            // The password the publish example takes from the environment, set as its user would.
            let script = "cd '\(folder.path)' && PATH='\(binaries)':\"$PATH\" && export MQTT_PASSWORD=example "
                + "NMEASTREAM_EXAMPLE=\(marker) && \(example)"
            // A session of its own, so that what the example leaves running is stopped with it.
            let run = try ChildProcess("/usr/bin/setsid", ["/bin/sh", "-c", script], errorPath: errors)
            let finished = run.exits(within: 1.5)
            if !finished { kill(-run.pid, SIGKILL) }
            let status = run.waitForExit()
            // What the example started in the background, in a session of its own too (simulate
            // makes its terminal's): found by the mark in its environment.
            Self.stopProcesses(marked: marker)
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(!finished || status != 64, "\(example): usage error\n\(said)")
            #expect(!said.contains("Error: ") && !said.contains("Usage: "), "\(example):\n\(said)")
        }
    }

    /// Kills every process whose environment holds `NMEASTREAM_EXAMPLE=marker`, and waits
    /// until none is left.
    static func stopProcesses(marked marker: String) {
        let mark = Data("NMEASTREAM_EXAMPLE=\(marker)".utf8)
        func marked() -> [pid_t] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { pid_t($0) }.filter { pid in
                guard pid != getpid(), let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
                return environment.range(of: mark) != nil
            }
        }
        for pid in marked() { kill(pid, SIGKILL) }
        _ = eventually(seconds: 5) { marked().isEmpty }
    }
}
