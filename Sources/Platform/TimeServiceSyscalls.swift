import CPlatform

/// chrony's SOCK reference-clock sample (`struct sock_sample` in chrony's `refclock_sock.c`),
/// laid out by this platform's C compiler as chronyd's own build lays it out.
package enum ChronySockSample {
    /// The bytes chronyd reads: the system time of the measurement, the offset (true time
    /// minus system time, seconds), whether it is a pulse, the leap indicator (0 none, 1
    /// insert, 2 delete) and chrony's magic number.
    package static func encoded(seconds: Int64, nanoseconds: Int64, offset: Double, pulse: Bool, leap: Int32, magic: Int32) -> [UInt8] {
        var sample = nmeastream_sock_sample()
        sample.tv.tv_sec = time_t(seconds)
        sample.tv.tv_usec = suseconds_t(nanoseconds / 1_000)
        sample.offset = offset
        sample.pulse = pulse ? 1 : 0
        sample.leap = leap
        sample.pad = 0
        sample.magic = magic
        return withUnsafeBytes(of: &sample) { Array($0) }
    }
}

/// One of ntpd's System V shared-memory reference-clock segments (`struct shmTime` in ntpd's
/// `refclock_shm.c`), attached; detached when released (the segment stays for its readers).
/// Not thread-safe: its owner serialises the calls.
package final class SharedTimeSegment {
    private let pointer: UnsafeMutablePointer<nmeastream_shm_time>

    /// Attaches unit `unit` (key "NTP0" plus it), creating it with `permissions` when nobody
    /// has; fails with the system's error.
    package init(unit: Int, permissions: Int32) throws(Errno) {
        guard let pointer = nmeastream_shm_attach(Int32(unit), permissions) else { throw Errno.current }
        self.pointer = pointer
    }

    deinit { nmeastream_shm_detach(pointer) }

    /// Clears the segment and sets its header: `mode` (1: readers check the count), `leap`,
    /// `precision` (log2 seconds) and the readers' median stages.
    package func reset(mode: Int32, leap: Int32, precision: Int32, samples: Int32) {
        pointer.pointee = nmeastream_shm_time()
        pointer.pointee.mode = mode
        pointer.pointee.leap = leap
        pointer.pointee.precision = precision
        pointer.pointee.nsamples = samples
    }

    /// Writes one sample with gpsd's handshake (valid cleared and count bumped, the values
    /// between two barriers, then count bumped and valid set).
    package func write(trueSeconds: Int64, trueNanoseconds: Int, systemSeconds: Int64, systemNanoseconds: Int, leap: Int32, precision: Int32) {
        nmeastream_shm_write(pointer, trueSeconds, trueNanoseconds, systemSeconds, systemNanoseconds, leap, precision)
    }
}

extension Syscall {
    /// This process's real user ID (0 for root).
    package static var userID: UInt32 { getuid() }
}
