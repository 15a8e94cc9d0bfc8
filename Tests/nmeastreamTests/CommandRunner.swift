import Foundation

/// Runs the built `nmeastream` command and collects what it printed.
struct CommandResult {
    var status: Int32
    var output: String
    var error: String
    var outputLines: [String] { output.split(separator: "\n").map(String.init) }
}

enum Command {
    /// The `nmeastream` executable next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nmeastream")
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/NMEATests/Fixtures/\(name)").path
    }

    static var sharedCorpus: URL { packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus") }

    /// Runs the command to its end; output and errors go to files, so neither can fill a pipe.
    /// `launcher` is a command line the executable runs under (such as `setpriv` options);
    /// `whileRunning` is called once the process has started.
    static func run(_ arguments: [String], input: Data? = nil, launcher: [String] = [],
                    whileRunning: () throws -> Void = {}) throws -> CommandResult {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nmeastream-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputURL = directory.appendingPathComponent("stdout"), errorURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        if let input {
            let inputURL = directory.appendingPathComponent("stdin")
            try input.write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        do {
            try whileRunning()
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
                             error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}
