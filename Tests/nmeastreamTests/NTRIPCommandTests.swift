import Foundation
import Testing
import TestSupport

/// `nmeastream ntrip` against a real caster (RTKLIB's str2str).
@Suite("nmeastream ntrip", .mayBlock, .enabled(if: RTKLIBCaster.isInstalled, "rtklib (str2str) is not installed"))
struct NTRIPCommandTests {
    @Test("the sourcetable: one line a mountpoint; a wrong password and an unknown mountpoint: exit 69 with one clear line each, no retry noise")
    func tableAndRefusals() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let table = try Command.run(["ntrip", "ntrip://127.0.0.1:\(caster.port)/"])
        #expect(table.status == 0, "\(table.error)")
        #expect(table.outputLines == ["MOUNTPOINT  WHERE  FORMAT  SYSTEMS  COUNTRY  POSITION", "MOUNT"])
        let wrong = try Command.run(["ntrip", "ntrip://me:nope@127.0.0.1:\(caster.port)/MOUNT"])
        #expect(wrong.status == 69)
        #expect(wrong.error == "nmeastream: ntrip://me@127.0.0.1:\(caster.port)/MOUNT: the caster refused the password of me\n", "\(wrong.error)")
        let unknown = try Command.run(["ntrip", "ntrip://me:pw@127.0.0.1:\(caster.port)/NOPE"])
        #expect(unknown.status == 69)
        #expect(unknown.error == "nmeastream: ntrip://me@127.0.0.1:\(caster.port)/NOPE: the caster has no mountpoint NOPE; it has MOUNT\n", "\(unknown.error)")
    }

    @Test("a mountpoint, the password from a file: streaming said, the frames counted by type each second; nothing sent: exit 75")
    func mountpoint() throws {
        let caster = try RTKLIBCaster()
        defer { caster.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-ntrip-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "pw\n".write(toFile: folder + "/password", atomically: false, encoding: .utf8)
        let silent = try Command.run(["ntrip", "ntrip://me@127.0.0.1:\(caster.port)/MOUNT", "--password-file", folder + "/password", "--seconds", "1.5"])
        #expect(silent.status == 75, "\(silent.error)")
        #expect(silent.error.contains("streaming from ntrip://me@127.0.0.1:\(caster.port)/MOUNT"), "\(silent.error)")
        #expect(silent.error.contains("no RTCM 3 frame in 1.5 s"), "\(silent.error)")
        let watch = try ChildProcess(Command.executable.path, ["ntrip", "ntrip://me@127.0.0.1:\(caster.port)/MOUNT", "--password-file",
                                                               folder + "/password", "--seconds", "3"],
                                     outputPath: folder + "/out", errorPath: folder + "/err")
        let said = { (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "" }
        try #require(waitForChanges(to: folder) { said().contains("streaming from") }, "\(said())")
        let sender = try LineClient(port: caster.input)
        for index in 0..<10 { sender.send(bytes: RTCM3TestFrames.numbered(index)) }
        #expect(watch.waitForExit() == 0, "\(said())")
        let output = (try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? ""
        #expect(output.split(separator: "\n").last == "10 frames (1001: 1, 1002: 1, 1003: 1, 1004: 1, 1005: 1, 1006: 1, 1007: 1, 1008: 1, 1009: 1, 1010: 1)", "\(output)")
    }
}
