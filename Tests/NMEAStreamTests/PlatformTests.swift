import Foundation
import Testing
@testable import NMEAStream
import TestSupport
import Platform

/// The error `body` threw, or `nil` when it threw none.
private func errno<T>(_ body: () throws(Errno) -> T) -> Errno? {
    do throws(Errno) {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The platform layer's wrappers: what they return, and the `Errno` they throw.
@Suite("platform layer", .mayBlock)
struct PlatformTests {
    @Test("files and folders: made, read, stated, linked, listed and removed; what is already there or already gone is no error; the rest throws its Errno")
    func files() throws {
        let folder = NSTemporaryDirectory() + "nmeastream-platform-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Syscall.makeDirectory(folder, mode: 0o700)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Syscall.makeDirectory(folder, mode: 0o700)
        #expect(try Syscall.status(folder).kind == .directory)
        let file = folder + "/a"
        // Larger than one read, to check it reads on.
        let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(FileManager.default.createFile(atPath: file, contents: Data(content)))
        #expect(try Syscall.readFile(file) == content)
        #expect(try Syscall.status(file).kind == .regular && Syscall.status(file).size == content.count)
        try Syscall.symbolicLink(folder + "/link", to: file)
        #expect(try Syscall.linkStatus(folder + "/link").kind == .symbolicLink)
        #expect(try Syscall.status(folder + "/link").kind == .regular)
        #expect(Syscall.linkTarget(folder + "/link") == file)
        #expect(Syscall.linkTarget(file) == nil)
        #expect(Syscall.resolvedPath(folder + "/link") == Syscall.resolvedPath(file))
        #expect(Syscall.directoryEntries(folder)?.sorted() == ["a", "link"])
        #expect(Syscall.exists(file) && !Syscall.exists(folder + "/missing"))
        try Syscall.remove(folder + "/link")
        try Syscall.remove(folder + "/link")
        #expect(errno { () throws(Errno) in try Syscall.readFile(folder + "/missing") } == Errno.noSuchFile)
        #expect(errno { () throws(Errno) in try Syscall.status(folder + "/missing") } == Errno.noSuchFile)
        #expect(errno { () throws(Errno) in try Syscall.symbolicLink(file, to: folder) } == Errno.exists)
        #expect(errno { () throws(Errno) in try Syscall.makeDirectory(folder + "/missing/b", mode: 0o700) } == Errno.noSuchFile)
        #expect(errno { () throws(Errno) in try Syscall.readFile(folder) } == Errno.isDirectory)
    }

    @Test("a datagram to a path where no socket listens fails with ENOENT (chronyd not running), and the socket stays usable")
    func datagrams() throws {
        let fd = try Syscall.unixDatagramSocket()
        defer { Syscall.close(fd) }
        let bytes: [UInt8] = [1, 2, 3]
        for _ in 0..<2 {
            let sent = bytes.withUnsafeBytes { bytes in errno { () throws(Errno) in try Syscall.sendDatagram(fd, bytes, to: "/nonexistent/nmeastream.sock") } }
            #expect(sent == .noSuchFile)
        }
    }

    @Test("the processes holding a file are found through /proc, by name and pid; this process is left out")
    func holders() throws {
        let path = NSTemporaryDirectory() + "nmeastream-held-\(getpid())"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3<\"$0\"; echo ready; exec sleep 30", path]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        // "ready" once descriptor 3 is open; then sleep, which keeps it, replaces the shell.
        _ = output.fileHandleForReading.availableData
        #expect(eventually { GPSError.processesHolding(path).contains("sleep (pid \(holder.processIdentifier))") },
                "holders: \(GPSError.processesHolding(path))")
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        #expect(!GPSError.processesHolding(path).contains { $0.hasSuffix("(pid \(getpid()))") })
    }
}
