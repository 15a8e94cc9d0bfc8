#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `simulate --control` fed what nobody should type: numbers past any range, a line of
/// 10 MB, escape sequences. Each is refused with a short, escaped message, and the receiver
/// goes on reporting.
@Suite("simulate --control under hostile input", .mayBlock)
struct SimulateControlTests {
    @Test("out-of-range numbers, a 10 MB line and escapes are refused, escaped and short; the receiver keeps reporting and takes the next good command")
    func hostileInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-control-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        mkfifo(folder + "/control", 0o600)
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--control", "--link", folder + "/gps"],
                                         inputPath: folder + "/control", errorPath: folder + "/simulate.err")
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        let control = try #require(FileHandle(forWritingAtPath: folder + "/control"))
        defer { try? control.close() }
        try #require(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/gps") })
        func said() -> String { (try? String(contentsOfFile: folder + "/simulate.err", encoding: .utf8)) ?? "" }
        control.write(Data("shift 1e308\ntime-shift 9223372036854775807\n\u{1B}[2Jclear\n".utf8))
        control.write(Data((String(repeating: "x", count: 10_000_000) + "\n").utf8))
        control.write(Data("no-fix\n".utf8))
        #expect(waitForChanges(to: folder, seconds: 20) { said().contains("no-fix from the next epoch") }, "\(said())")
        let text = said()
        #expect(text.contains("refused shift 1e308: shift takes metres"))
        #expect(text.contains("refused time-shift 9223372036854775807: time-shift takes whole seconds"))
        #expect(text.contains("not a command: \\u{1B}[2Jclear"))
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("refused a line of over 256 bytes: " + String(repeating: "x", count: 64) + "..."))
        #expect(text.utf8.count < 4096, "\(text.utf8.count) bytes said")
        #expect(simulator.isRunning)
        // The receiver still reports, now without a fix (RMC status V).
        let device = open(folder + "/gps", O_RDONLY | O_NOCTTY | O_NONBLOCK)
        try #require(device >= 0)
        defer { close(device) }
        var received = ""
        #expect(eventually(seconds: 5) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(device, &buffer, buffer.count)
            if count > 0 { received += String(decoding: buffer[..<count], as: UTF8.self) }
            return received.contains(",V,")
        }, "\(received.suffix(300))")
    }
}
