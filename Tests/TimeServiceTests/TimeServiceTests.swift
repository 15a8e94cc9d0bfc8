#if canImport(Glibc)
import Glibc
#endif
import Testing
import NMEAStream
@testable import TimeService
import TestSupport

/// The time service's rules, without a socket or a clock: chrony's sample layout, the serial
/// sampler (wait for a valid fix, one a second) and the pairing of pulses with seconds.
@Suite("Time service: samples and pairing", .mayBlock)
struct TimeServiceTests {
    /// 2024-06-05 at `seconds` past midnight (a fraction allowed).
    static func time(_ seconds: Double) -> UTCTime {
        UTCTime(posixSeconds: 1_717_545_600 + Int64(seconds.rounded(.down)),
                nanoseconds: Int64(((seconds - seconds.rounded(.down)) * 1e9).rounded()))
    }

    /// A valid 3D fix of UTC second `second`, whose first byte arrived `latency` s later.
    static func fix(_ second: Double, latency: Double = 0.25, mode: FixMode = .threeD) -> Fix {
        var fix = Fix()
        fix.mode = mode
        fix.time = time(second)
        fix.receivedAt = time(second + latency)
        return fix
    }

    @Test("the sample is chrony's struct sock_sample: timeval, offset, pulse, leap, pad, magic")
    func encoding() {
        let sample = TimeSample(systemTime: Self.time(12.25), offset: -0.25, pulse: true, leap: .insert)
        let bytes = sample.encoded()
        #expect(bytes.count == MemoryLayout<timeval>.size + 8 + 16)
        let seconds = bytes.withUnsafeBytes { $0.load(fromByteOffset: 0, as: Int.self) }
        let microseconds = bytes.withUnsafeBytes { $0.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self) }
        #expect(seconds == 1_717_545_612)
        #expect(microseconds == 250_000)
        let base = MemoryLayout<timeval>.size
        #expect(bytes.withUnsafeBytes { $0.load(fromByteOffset: base, as: Double.self) } == -0.25)
        let integers = (0..<4).map { index in bytes.withUnsafeBytes { $0.load(fromByteOffset: base + 8 + 4 * index, as: Int32.self) } }
        #expect(integers == [1, 1, 0, 0x534f_434b])
        #expect(TimeSample(systemTime: Self.time(0), offset: 0, leap: .delete).encoded()[base + 12] == 2)
        #expect(TimeSample(systemTime: Self.time(0), offset: 0).encoded()[base + 12] == 0)
    }

    @Test("serial time: samples only after three valid fixes in a row; an invalid fix starts the count again")
    func waitsForValidFixes() {
        var sampler = SerialTimeSampler()
        #expect(sampler.sample(for: Self.fix(0)) == nil)
        #expect(sampler.sample(for: Self.fix(1)) == nil)
        #expect(sampler.sample(for: Self.fix(2)) != nil)
        #expect(sampler.sample(for: Self.fix(3, mode: .noFix)) == nil)
        #expect(sampler.sample(for: Self.fix(4)) == nil)
        #expect(sampler.sample(for: Self.fix(5)) == nil)
        #expect(sampler.sample(for: Self.fix(6)) != nil)
        var untimed = Self.fix(7)
        untimed.time = nil
        #expect(sampler.sample(for: untimed) == nil, "no time, no sample")
        var unstamped = Self.fix(8)
        unstamped.receivedAt = nil
        #expect(sampler.sample(for: unstamped) == nil, "no arrival stamp (a log), no sample")
    }

    @Test("serial time: a UBX fix whose time is not fully resolved counts as invalid; a resolved one, or NMEA's, counts")
    func unresolvedTime() {
        var sampler = SerialTimeSampler(requiredValidFixes: 1)
        var unresolved = Self.fix(0)
        unresolved.timeValidity = TimeValidity(dateIsValid: true, timeIsValid: true, isFullyResolved: false)
        #expect(sampler.sample(for: unresolved) == nil)
        var resolved = Self.fix(1)
        resolved.timeValidity = TimeValidity(dateIsValid: true, timeIsValid: true, isFullyResolved: true)
        #expect(sampler.sample(for: resolved) != nil)
        #expect(sampler.sample(for: Self.fix(2)) != nil, "NMEA says nothing of validity")
    }

    @Test("serial time: the offset is the receiver's time minus the arrival; at most one sample per UTC second")
    func oneASecond() throws {
        var sampler = SerialTimeSampler(requiredValidFixes: 1)
        let first = sampler.sample(for: Self.fix(10, latency: 0.125))
        let sample = try #require(first)
        #expect(sample.systemTime == Self.time(10.125))
        #expect(abs(sample.offset - -0.125) < 1e-9)
        #expect(!sample.pulse && sample.leap == .none)
        // A 5 Hz receiver: four more fixes in the same second give nothing.
        for tenth in [10.2, 10.4, 10.6, 10.8] { #expect(sampler.sample(for: Self.fix(tenth)) == nil) }
        #expect(sampler.sample(for: Self.fix(11)) != nil)
        #expect(sampler.sample(for: Self.fix(13)) != nil, "a second missed: the next is sent")
    }

    @Test("a leap second announced goes with the sample: the one given, else the one the receiver announces (NAV-TIMELS)")
    func leap() {
        var sampler = SerialTimeSampler(requiredValidFixes: 1)
        #expect(sampler.sample(for: Self.fix(20), leap: .insert)?.leap == .insert)
        var announcing = Self.fix(21)
        announcing.leapSecondChange = -1
        #expect(sampler.sample(for: announcing)?.leap == .delete)
        #expect(sampler.sample(for: Self.fix(22))?.leap == TimeSample.Leap.none)
    }

    /// A serial sample of UTC second `second` whose report began to arrive at system time
    /// `arrival`.
    static func serial(_ second: Double, arrivedAt arrival: Double) -> TimeSample {
        TimeSample(systemTime: time(arrival), offset: second - arrival)
    }

    @Test("PPS: a pulse is paired with the second the report after it names, and its offset is exact")
    func pulsePaired() throws {
        var pairing = PulsePairing()
        // The pulse of second 31 came at system time 31.0021 (the system clock 2.1 ms ahead);
        // the report for 31 began to arrive 412 ms later.
        pairing.notePulse(at: Self.time(31.0021))
        let paired = pairing.sample(after: Self.serial(31, arrivedAt: 31.4141))
        let sample = try #require(paired)
        #expect(abs(sample.offset - -0.0021) < 1e-7)
        #expect(sample.systemTime == Self.time(31.0021))
        // A system clock 0.3 s behind: the pulse of second 32 at system time 31.7; however late
        // its report, the pulse's offset is the clock's error alone.
        pairing.notePulse(at: Self.time(31.7))
        let pairedBehind = pairing.sample(after: Self.serial(32, arrivedAt: 32.3))
        let behind = try #require(pairedBehind)
        #expect(abs(behind.offset - 0.3) < 1e-7)
    }

    @Test("PPS: a missed pulse gives no sample, a pulse with no report after it is dropped, a second is not sent twice")
    func pulseUnpaired() {
        var pairing = PulsePairing()
        #expect(pairing.sample(after: Self.serial(40, arrivedAt: 40.4)) == nil, "a report with no pulse before it")
        pairing.notePulse(at: Self.time(41.001))
        #expect(pairing.sample(after: Self.serial(41, arrivedAt: 41.4)) != nil)
        // The pulse of 42 missed: its report pairs with nothing; 43 pairs as usual.
        #expect(pairing.sample(after: Self.serial(42, arrivedAt: 42.4)) == nil)
        pairing.notePulse(at: Self.time(43.0005))
        #expect(pairing.sample(after: Self.serial(43, arrivedAt: 43.4)) != nil, "after a missed pulse, the next pairs")
        // A pulse whose report never came (the receiver stalled): too late for the next one.
        pairing.notePulse(at: Self.time(44.0005))
        #expect(pairing.sample(after: Self.serial(45, arrivedAt: 45.4)) == nil, "1.4 s after the pulse: not its report")
        // A report before the pulse, and a 5 Hz receiver's report of a fraction of a second.
        pairing.notePulse(at: Self.time(46.5))
        #expect(pairing.sample(after: Self.serial(46, arrivedAt: 46.4)) == nil)
        pairing.notePulse(at: Self.time(47.0005))
        #expect(pairing.sample(after: Self.serial(47.2, arrivedAt: 47.4)) == nil)
        // One second twice (a duplicated report): sent once.
        pairing.notePulse(at: Self.time(48.0005))
        #expect(pairing.sample(after: Self.serial(48, arrivedAt: 48.3)) != nil)
        pairing.notePulse(at: Self.time(48.0006))
        #expect(pairing.sample(after: Self.serial(48, arrivedAt: 48.35)) == nil)
    }

    @Test("report latency: arrival minus the receiver's time, over fixes with both; its median is chrony's offset")
    func latency() throws {
        var record = ReportLatency()
        #expect(record.summary == nil)
        for (second, latency) in [(0.0, 0.30), (1, 0.31), (2, 0.29), (3, 0.50), (4, 0.30)] { record.record(Self.fix(second, latency: latency)) }
        var log = Self.fix(5)
        log.receivedAt = nil
        record.record(log)
        let summary = try #require(record.summary)
        #expect(summary.count == 5)
        #expect(abs(summary.minimum - 0.29) < 1e-9 && abs(summary.median - 0.30) < 1e-9 && abs(summary.maximum - 0.50) < 1e-9)
    }

    @Test("report latency keeps a bounded sample: a day of a 10 Hz receiver holds 4,096 latencies, with the count, extremes and percentiles still right")
    func latencyBounded() throws {
        var record = ReportLatency()
        // 864,000 latencies spread evenly over 0.100 to 0.200 s, in a scrambled order.
        let total = 864_000
        for n in 0..<total { record.record(latency: 0.1 + 0.1 * Double((n &* 7919) % total) / Double(total)) }
        #expect(record.keptSamples == ReportLatency.sampleCapacity)
        let summary = try #require(record.summary)
        #expect(summary.count == total)
        #expect(abs(summary.minimum - 0.1) < 1e-9 && summary.maximum < 0.2 && summary.maximum > 0.1999)
        // Within about two percentiles of the truth (a 4,096 sample: a standard error near 0.8%).
        #expect(abs(summary.median - 0.15) < 0.002, "\(summary.median)")
        #expect(abs(summary.p95 - 0.195) < 0.002, "\(summary.p95)")
    }
}
