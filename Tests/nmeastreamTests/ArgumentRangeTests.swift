import Foundation
import Testing
import TestSupport

/// Numbers from the command line are checked before they are used: a length of time that is
/// negative, not a number, infinite or past a year is a usage error (64), never a trap (132)
/// when it becomes a timer.
@Suite("Numbers on the command line", .mayBlock)
struct ArgumentRangeTests {
    @Test("lengths of time past any use, not finite or negative: exit 64 with the option named", arguments: [
        ["serve", "/dev/null", "--listen", "127.0.0.1:0", "--linger"],
        ["serve", "/dev/null", "--listen", "127.0.0.1:0", "--stale"],
        ["serve", "/dev/null", "--listen", "127.0.0.1:0", "--request-timeout"],
        ["ntrip", "ntrip://127.0.0.1:1/MOUNT", "--seconds"],
        ["read", "udp://:10110", "--timeout"],
        ["publish", "mqtt://127.0.0.1:1/fleet", "--log", "/dev/null", "--drain-timeout"],
    ])
    func lengthsOfTime(command: [String]) throws {
        for value in ["1e300", "nan", "inf", "-1", "31622401"] {
            let result = try Command.run(command + [value])
            #expect(result.status == 64, "\(command.last!) \(value): \(result.status) \(result.error)")
            #expect(result.error.contains(command.last!), "\(result.error)")
        }
    }

    @Test("a queue size past a terabyte, or one that overflows, is a usage error")
    func queueSize() throws {
        for size in ["9223372036854775807G", "2000G", "0", "-5M"] {
            let result = try Command.run(["publish", "mqtt://127.0.0.1:1/fleet", "--log", "/dev/null", "--queue-size", size])
            #expect(result.status == 64, "\(size): \(result.status) \(result.error)")
        }
    }
}
