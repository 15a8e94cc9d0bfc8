#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `simulate` keeps true time as a receiver does: each epoch is labelled with the second in
/// which it is sent, before and after the process is stopped for a while.
@Suite("simulate keeps true time", .mayBlock)
struct SimulateClockTests {
    /// A GGA's label and when it arrived, both in seconds of the UTC day.
    struct Arrival: CustomStringConvertible {
        let label: Double
        let arrived: Double
        /// How long after the start of its labelled second it arrived, seconds.
        var lateness: Double {
            let difference = arrived - label
            return difference < -43_200 ? difference + 86_400 : difference
        }
        var description: String { "label \(label) arrived \(String(format: "%.3f", arrived))" }
    }

    @Test("every epoch is labelled with the second it is sent in, also after the simulator was stopped (SIGSTOP) for a second and a half")
    func labelsFollowTheClockAfterAStall() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmeastream-clock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let simulator = try ChildProcess(Command.executable.path, ["simulate", "--link", folder + "/gps"], errorPath: folder + "/simulate.err")
        defer {
            simulator.terminate()
            _ = simulator.waitForExit()
        }
        try #require(waitForChanges(to: folder) { FileManager.default.fileExists(atPath: folder + "/gps") })
        let device = open(folder + "/gps", O_RDONLY | O_NOCTTY | O_NONBLOCK)
        try #require(device >= 0)
        defer { close(device) }
        var reader = GGAReader(device: device)
        let first = reader.next(3)
        let before = try #require(first, "\(reader.seen) running \(simulator.isRunning) \((try? String(contentsOfFile: folder + "/simulate.err", encoding: .utf8)) ?? "")")
        kill(simulator.pid, SIGSTOP)
        // The stall itself: the time the simulator is kept from running.
        usleep(1_500_000)
        kill(simulator.pid, SIGCONT)
        let then = reader.next(4)
        let after = try #require(then, "\(reader.seen)")
        let all = before + after
        for arrival in all {
            // Labelled with the second it was sent in: it arrives within that second (a
            // loaded machine may delay its delivery by a little more).
            #expect(arrival.lateness >= 0 && arrival.lateness < 1.2, "\(arrival); all: \(all)")
        }
        let labels = all.map(\.label)
        #expect(zip(labels, labels.dropFirst()).allSatisfy { $0 < $1 || $1 < 3_600 }, "every second once, in order: \(labels)")
        // Once going again, the pace is kept: one a second, a tenth into it.
        #expect(after.dropFirst().allSatisfy { $0.lateness < 0.6 }, "\(after)")
    }
}

/// Reads GGA sentences from a device, noting when each arrived.
private struct GGAReader {
    let device: Int32
    private var pending: [UInt8] = []
    private(set) var seen: [String] = []

    init(device: Int32) { self.device = device }

    /// The next `count` GGAs, or `nil` if they do not come within 15 s.
    mutating func next(_ count: Int) -> [SimulateClockTests.Arrival]? {
        var arrivals: [SimulateClockTests.Arrival] = []
        let deadline = Date().addingTimeInterval(15)
        while arrivals.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var poller = pollfd(fd: device, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let arrived = Double(now.tv_sec % 86_400) + Double(now.tv_nsec) / 1e9
            var buffer = [UInt8](repeating: 0, count: 4096)
            let read = Glibc.read(device, &buffer, buffer.count)
            guard read > 0 else { continue }
            pending += buffer[..<read]
            // Bytes, not a String: "\r\n" is one Character, which "\n" does not match.
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeSubrange(...end)
                guard line.hasPrefix("$GPGGA,") || line.hasPrefix("$GNGGA,") else { continue }
                seen.append(line)
                let time = line.split(separator: ",", omittingEmptySubsequences: false)[1]
                guard time.count >= 6, let hours = Double(time.prefix(2)), let minutes = Double(time.dropFirst(2).prefix(2)),
                      let seconds = Double(time.dropFirst(4)) else { continue }
                arrivals.append(.init(label: hours * 3600 + minutes * 60 + seconds, arrived: arrived))
            }
        }
        return arrivals
    }
}
