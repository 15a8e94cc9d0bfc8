import Foundation
import PackagePlugin

/// Carries the live page's files (`Web/Page/*.html`, `*.css`, `*.js`, `*.svg` in the target) in the
/// binary as string constants of `PageFiles`, made at build time by the `EmbedFiles` tool:
/// the page is edited as real files, and served without reading the disk.
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Web/Page")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { name in [".html", ".css", ".js", ".svg"].contains { name.hasSuffix($0) } }
            .sorted()
        let inputs = names.map { folder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "PageFiles.swift")
        return [.buildCommand(
            displayName: "Embedding the live page's files",
            executable: try context.tool(named: "EmbedFiles").url,
            arguments: [output.path, "PageFiles"] + inputs.map { $0.path },
            inputFiles: inputs,
            outputFiles: [output]
        )]
    }
}
