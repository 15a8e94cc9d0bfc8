#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `serve --chrony` and `--ntp-shm` say at once when their receiver cannot be read (not
/// only "0 samples" when serve stops), once however often it is tried, and say when it is
/// read again.
@Suite("Time feeds say when their receiver cannot be read", .mayBlock, .serialized)
struct TimeFeedReceiverMessageTests {
    @Test("a receiver missing at the start: said at once and once, with the reason; said again when it comes and is read",
          arguments: ["chrony", "ntp-shm"])
    func missingThenPresent(feed: String) throws {
        // ntp-shm: unit 8, a fifth receiver's, held by one test process at a time (see
        // NTPSHMCommandTests).
        let unit = 8
        let lock = open(FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-ntp-shm-\(unit).lock").path,
                        O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
        defer { close(lock) }
        if feed == "ntp-shm" { flock(lock, LOCK_EX) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-feed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = folder + "/gps0"
        let options = feed == "chrony" ? ["--chrony", "--chrony-dir", folder] : ["--ntp-shm", "--ntp-shm-unit", "\(unit)"]
        let serve = try ChildProcess(Command.executable.path, ["serve", device, "--listen", "127.0.0.1:0"] + options,
                                     errorPath: folder + "/serve.err")
        defer {
            serve.terminate()
            _ = serve.waitForExit()
        }
        let said = { (try? String(contentsOfFile: folder + "/serve.err", encoding: .utf8)) ?? "" }
        let missing = "\(feed) \(device): no samples: \(device): no such device"
        #expect(waitForChanges(to: folder) { said().contains(missing) }, "\(said())")
        // Tried every second: still said once after a few tries.
        #expect(!waitForChanges(to: folder, seconds: 2.5) { said().components(separatedBy: missing).count > 2 }, "\(said())")

        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", device])
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        #expect(waitForChanges(to: folder, seconds: 20) { said().contains("\(feed) \(device): reading the receiver again") }, "\(said())")
        #expect(said().components(separatedBy: missing).count == 2, "said once: \(said())")
    }
}
