import Benchmark
import Dispatch
import Foundation
import NMEAStream
import Synchronization

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        maxDuration: .seconds(20),
        maxIterations: 2_000
    )

    // From the write of an epoch into the pseudo-terminal to the fix delegate call: the
    // kernel's tty path, the read source's wake-up, framing, decoding and assembly. Each
    // iteration opens a reader and times 500 epochs, one at a time; the custom metric is one
    // sample per epoch.
    Benchmark("byte to fix: write of an epoch to didUpdate fix (custom metric: µs per epoch)",
              configuration: .init(metrics: [.custom("write to fix (µs)")], maxDuration: .seconds(30), maxIterations: 4)) { benchmark in
        let terminal = try PseudoTerminal()
        let probe = LatencyProbe()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600))
        reader.delegate = probe
        reader.start()
        // Opening flushes what the device had waiting: write once it is open.
        Thread.sleep(forTimeInterval: 0.2)
        var epochs = EpochGenerator()
        // The first cycle ends at the second's first sentence, which teaches where a cycle
        // ends (RMC); from then on each epoch completes on its own last sentence.
        for _ in 0..<3 {
            terminal.write(epochs.next())
        }
        probe.waitForFixes(3)
        for _ in 0..<500 {
            let epoch = epochs.next()
            let start = DispatchTime.now().uptimeNanoseconds
            terminal.write(epoch)
            let arrived = probe.waitForFix()
            benchmark.measurement(.custom("write to fix (µs)"), Int(arrived &- start) / 1_000)
            // A receiver sends an epoch at a time, not back to back.
            usleep(1_000)
        }
        reader.stop()
    }

    // The process's CPU time in one idle second, without a reader: what the benchmark harness
    // itself costs, the reference for the next one.
    Benchmark("idle reference: no reader, CPU per second (custom metric: µs)",
              configuration: .init(metrics: [.custom("CPU per idle second (µs)")], maxDuration: .seconds(10), maxIterations: 3)) { benchmark in
        for _ in benchmark.scaledIterations {
            let before = processCPUMicroseconds()
            Thread.sleep(forTimeInterval: 1)
            benchmark.measurement(.custom("CPU per idle second (µs)"), processCPUMicroseconds() - before)
        }
    }

    // A reader with its device open and nothing arriving, for one second per iteration: the
    // process's CPU time in that second (no polling timer: it should be the reference's).
    Benchmark("idle: an open device with no data, CPU per second (custom metric: µs)",
              configuration: .init(metrics: [.custom("CPU per idle second (µs)")], maxDuration: .seconds(10), maxIterations: 3)) { benchmark in
        let terminal = try PseudoTerminal()
        let reader = NMEAReader(source: .serial(path: terminal.devicePath, speed: 9600))
        reader.start()
        Thread.sleep(forTimeInterval: 0.2)
        for _ in benchmark.scaledIterations {
            let before = processCPUMicroseconds()
            Thread.sleep(forTimeInterval: 1)
            benchmark.measurement(.custom("CPU per idle second (µs)"), processCPUMicroseconds() - before)
        }
        reader.stop()
        withExtendedLifetime(terminal) {}
    }

    // One device shared by 1 000 subscribers of GPSMonitor.fixes: from writing 100 epochs to
    // the last subscriber's last fix. wallClock / 100 000 is the cost per fix per subscriber.
    Benchmark("fan-out: 100 fixes to 1000 GPSMonitor subscribers (ms; / 100 000 = per fix per subscriber)",
              configuration: .init(metrics: [.wallClock, .cpuTotal], timeUnits: .milliseconds, maxIterations: 10)) { benchmark in
        let fixes = 100, subscribers = 1_000
        for _ in benchmark.scaledIterations {
            let terminal = try PseudoTerminal()
            let gps = GPSMonitor(source: .serial(path: terminal.devicePath, speed: 9600))
            let received = Atomic<Int>(0)
            let done = DispatchSemaphore(value: 0)
            let target = (fixes - 1) * subscribers
            let subscriptions = (0..<subscribers).map { _ in
                gps.fixes.observe(next: { _ in
                    if received.add(1, ordering: .relaxed).newValue == target { done.signal() }
                })
            }
            var epochs = EpochGenerator()
            let log = (0..<fixes).flatMap { _ in epochs.next() }
            Thread.sleep(forTimeInterval: 0.1)
            benchmark.startMeasurement()
            terminal.write(log)
            // The first epoch's fix completes when the cycle end is learned, at the second.
            done.wait()
            benchmark.stopMeasurement()
            subscriptions.forEach { $0.dispose() }
        }
    }
}

/// Records when fixes arrive.
final class LatencyProbe: NMEAReaderDelegate, @unchecked Sendable {
    private let arrivals = Mutex<[UInt64]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func reader(_ reader: NMEAReader, didUpdate fix: Fix) {
        let now = DispatchTime.now().uptimeNanoseconds
        arrivals.withLock { $0.append(now) }
        arrived.signal()
    }

    func waitForFixes(_ count: Int) {
        for _ in 0..<count { _ = waitForFix() }
    }

    /// Waits for the next fix and returns when it arrived.
    func waitForFix() -> UInt64 {
        arrived.wait()
        return arrivals.withLock { $0.removeFirst() }
    }
}

/// GGA, GSA and RMC of successive seconds.
struct EpochGenerator {
    private var second = 0

    mutating func next() -> [UInt8] {
        let time = String(format: "%02d%02d%02d.00", 12 + second / 3600 % 12, second / 60 % 60, second % 60)
        second += 1
        let bodies = [
            "GPGGA,\(time),5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,",
            "GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5",
            "GPRMC,\(time),A,5207.4074,N,00419.2659,E,0.0,,050624,,,A",
        ]
        return Array(bodies.map { body in
            let sum = body.utf8.reduce(UInt8(0), ^)
            return "$\(body)*\(String(format: "%02X", sum))\r\n"
        }.joined().utf8)
    }
}

/// The process's user and system CPU time, in microseconds.
func processCPUMicroseconds() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

/// A pseudo-terminal pair: the reader opens `devicePath`; the benchmark writes to the master.
/// (The tests' `TestSupport` has the same; it is not a product of the package.)
final class PseudoTerminal {
    let master: Int32
    let devicePath: String

    init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN: macros Swift cannot import.
        guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            throw POSIXError(.EIO)
        }
        devicePath = "/dev/pts/\(number)"
    }

    deinit { close(master) }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if written <= 0 { if errno == EINTR || errno == EAGAIN { continue } else { return } }
            offset += written
        }
    }
}
