import Foundation

/// A tmpfs of a few kilobytes mounted on a folder of its own, for the tests of a full or
/// read-only disk. Needs root (and a kernel that lets this container mount): `nil` otherwise,
/// and the test says it is skipped.
public final class SmallFilesystem {
    /// Where it is mounted.
    public let path: String

    /// Mounts a tmpfs of `kilobytes`.
    public init?(kilobytes: Int) {
        guard getuid() == 0 else { return nil }
        path = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-tmpfs-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard spawnAndWait("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]) == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    /// Fills what is left with a file (`filler`), so that the next write fails with ENOSPC.
    public func fill() {
        let filler = path + "/filler"
        guard let handle = FileHandle(forWritingAtPath: filler) ?? {
            _ = FileManager.default.createFile(atPath: filler, contents: nil)
            return FileHandle(forWritingAtPath: filler)
        }() else { return }
        defer { try? handle.close() }
        let block = Data(repeating: 0, count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        let byte = Data([0])
        while (try? handle.write(contentsOf: byte)) != nil {}
    }

    /// Frees what ``fill()`` took.
    public func free() { try? FileManager.default.removeItem(atPath: path + "/filler") }

    /// Remounts it read-only (`true`) or read-write.
    @discardableResult
    public func setReadOnly(_ readOnly: Bool) -> Bool {
        spawnAndWait("/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", path]) == 0
    }

    deinit {
        _ = spawnAndWait("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }
}
