#if canImport(Glibc)
import Glibc
#endif
import CPlatform
import Testing
import NMEAStream
@testable import TimeService
import TestSupport

/// ntpd's shared-memory segments as nmeastream writes them: the layout against the struct
/// ntpd declares, gpsd's handshake read back as ntpd reads it, the units handed out as gpsd
/// hands them out, and the leap second announced as gpsd announces it.
@Suite("NTP shared memory", .mayBlock, .serialized)
struct NTPSHMTests {
    @Test("the segment is ntpd's struct shmTime, field by field (LP64: time_t of 8 bytes, 8-aligned)",
          .enabled(if: MemoryLayout<time_t>.size == 8, "the offsets below are those of a 64-bit time_t"))
    func layout() {
        typealias Segment = nmeastream_shm_time
        let offsets: [(String, Int?)] = [
            ("mode", MemoryLayout<Segment>.offset(of: \.mode)), ("count", MemoryLayout<Segment>.offset(of: \.count)),
            ("clockTimeStampSec", MemoryLayout<Segment>.offset(of: \.clockTimeStampSec)),
            ("clockTimeStampUSec", MemoryLayout<Segment>.offset(of: \.clockTimeStampUSec)),
            ("receiveTimeStampSec", MemoryLayout<Segment>.offset(of: \.receiveTimeStampSec)),
            ("receiveTimeStampUSec", MemoryLayout<Segment>.offset(of: \.receiveTimeStampUSec)),
            ("leap", MemoryLayout<Segment>.offset(of: \.leap)), ("precision", MemoryLayout<Segment>.offset(of: \.precision)),
            ("nsamples", MemoryLayout<Segment>.offset(of: \.nsamples)), ("valid", MemoryLayout<Segment>.offset(of: \.valid)),
            ("clockTimeStampNSec", MemoryLayout<Segment>.offset(of: \.clockTimeStampNSec)),
            ("receiveTimeStampNSec", MemoryLayout<Segment>.offset(of: \.receiveTimeStampNSec)),
            ("dummy", MemoryLayout<Segment>.offset(of: \.dummy)),
        ]
        // ntpd's refclock_shm.c on x86-64 and aarch64: the two time_t fields 8-aligned, four
        // bytes of padding after clockTimeStampUSec, 96 bytes in all (92 and four at the end).
        let ntpd: [(String, Int)] = [
            ("mode", 0), ("count", 4), ("clockTimeStampSec", 8), ("clockTimeStampUSec", 16), ("receiveTimeStampSec", 24),
            ("receiveTimeStampUSec", 32), ("leap", 36), ("precision", 40), ("nsamples", 44), ("valid", 48),
            ("clockTimeStampNSec", 52), ("receiveTimeStampNSec", 56), ("dummy", 60),
        ]
        #expect(offsets.map(\.0) == ntpd.map(\.0))
        #expect(offsets.map(\.1) == ntpd.map(\.1))
        #expect(MemoryLayout<Segment>.size == 96, "sizeof(struct shmTime), as shmget is asked for it")
    }

    /// A unit no time service uses (ntpd's and gpsd's are 0 to 11), removed after the test.
    static let testUnit = 200 + Int(getpid() % 40)

    /// The segment of `unit` as a reader sees it: attached afresh, read field by field.
    static func read(unit: Int) -> nmeastream_shm_time? {
        let id = shmget(key_t(0x4e54_5030 + unit), MemoryLayout<nmeastream_shm_time>.size, 0)
        guard id >= 0, let pointer = shmat(id, nil, SHM_RDONLY), pointer != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        defer { shmdt(pointer) }
        return pointer.load(as: nmeastream_shm_time.self)
    }

    static func remove(unit: Int) {
        let id = shmget(key_t(0x4e54_5030 + unit), 0, 0)
        if id >= 0 { shmctl(id, IPC_RMID, nil) }
    }

    @Test("a sample written as gpsd writes it: readied as not in sync, then count bumped twice, valid set, the times to the nanosecond, leap and precision")
    func writeAndReadBack() throws {
        Self.remove(unit: Self.testUnit)
        defer { Self.remove(unit: Self.testUnit) }
        let segment = try NTPSHMSegment(unit: Self.testUnit)
        let readied = try #require(Self.read(unit: Self.testUnit))
        #expect(readied.mode == 1 && readied.leap == 3 && readied.precision == -20 && readied.nsamples == 3 && readied.valid == 0)
        // Arrived at 12:00:00.123456789 on 2024-12-31, naming 12:00:00: the true time is the
        // report's second, the system time its arrival.
        let arrival = UTCTime(posixSeconds: 1_735_646_400, nanoseconds: 123_456_789)
        segment.write(TimeSample(systemTime: arrival, offset: -0.123456789, leap: .insert), precision: -1)
        let written = try #require(Self.read(unit: Self.testUnit))
        #expect(written.valid == 1 && written.count == readied.count + 2)
        #expect(written.clockTimeStampSec == 1_735_646_400 && written.clockTimeStampNSec == 0 && written.clockTimeStampUSec == 0)
        #expect(written.receiveTimeStampSec == 1_735_646_400 && written.receiveTimeStampNSec == 123_456_789
                && written.receiveTimeStampUSec == 123_456)
        #expect(written.leap == 1, "a leap second announced in December is passed on")
        #expect(written.precision == -1)
        // A reader that took the sample clears valid; the next write sets it again.
        segment.write(TimeSample(systemTime: UTCTime(posixSeconds: 1_735_646_401, nanoseconds: 120_000_000), offset: -0.12), precision: -1)
        let next = try #require(Self.read(unit: Self.testUnit))
        #expect(next.count == readied.count + 4 && next.clockTimeStampSec == 1_735_646_401 && next.leap == 0)
    }

    @Test("units handed out as gpsd does: the first free, two a receiver, from 0 as root and 2 otherwise; given back, taken again")
    func units() {
        let root = NTPSHMUnits(first: 0, count: 4)
        #expect(root.take() == 0 && root.take() == 1 && root.take() == 2)
        root.give(1)
        #expect(root.take() == 1 && root.take() == 3 && root.take() == nil)
        #expect(NTPSHMUnits().first == (getuid() == 0 ? 0 : 2))
    }

    @Test("a leap second is announced only in June and December, as gpsd announces it to ntpd and chronyd")
    func leapMonths() {
        let march = TimeSample(systemTime: UTCTime(posixSeconds: 1_710_000_000, nanoseconds: 0), offset: 0, leap: .insert)
        let june = TimeSample(systemTime: UTCTime(posixSeconds: 1_718_000_000, nanoseconds: 0), offset: 0, leap: .insert)
        #expect(march.announcedLeap == .none && june.announcedLeap == .insert)
    }
}
