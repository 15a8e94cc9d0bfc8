import Foundation

/// The shared receiver logs beside the project (`../shared/corpus`), when they are there.
public enum Corpus {
    /// `../shared/corpus` relative to the package root, or `NMEASTREAM_CORPUS` when set.
    public static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["NMEASTREAM_CORPUS"] {
            return URL(fileURLWithPath: path)
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    /// Whether the corpus is there.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("gpsd-nmea").path)
    }

    /// The `.log` files of one corpus folder, sorted by name.
    public static func logs(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "log" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
