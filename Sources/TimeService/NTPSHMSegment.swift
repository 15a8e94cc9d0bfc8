import CPlatform
import Platform
import NMEAStream
import Synchronization

/// One of ntpd's shared-memory reference-clock segments, attached: `NTP<unit>`, as ntpd's and
/// ntpsec's `refclock shm` and chronyd's `refclock SHM <unit>` read it.
///
/// Attaching creates the segment when nobody has (units 0 and 1 readable by their owner only,
/// others by all, as ntpd and gpsd make them), and readies it as gpsd does: mode 1 (readers
/// check the count), leap 3 (not in sync: ignore me) until the first sample, precision -20,
/// three median stages. The segment outlives the process: its readers keep it.
final class NTPSHMSegment: Sendable {
    /// The unit: the segment's key is "NTP0" plus it.
    let unit: Int
    private let segment: Mutex<UnsafeMutablePointer<nmeastream_shm_time>>

    /// The leap field's "not in sync": readers ignore the segment.
    static let notInSync: Int32 = 3

    /// Attaches unit `unit`; fails with the system's error (`EACCES`: a segment made by
    /// another user for its owner only, such as a root ntpd's unit 0 or 1; `ENOSYS`: a
    /// kernel without System V IPC).
    init(unit: Int) throws(Errno) {
        self.unit = unit
        guard let pointer = nmeastream_shm_attach(Int32(unit), unit < 2 ? 0o600 : 0o666) else { throw Errno.current }
        pointer.pointee = nmeastream_shm_time()
        pointer.pointee.mode = 1
        pointer.pointee.leap = Self.notInSync
        pointer.pointee.precision = -20
        pointer.pointee.nsamples = 3
        segment = Mutex(pointer)
    }

    deinit {
        segment.withLock { nmeastream_shm_detach($0) }
    }

    /// Writes `sample`, with `precision` (log2 seconds: -1 for a receiver's serial time, -20
    /// for a pulse), by the count and valid handshake.
    func write(_ sample: TimeSample, precision: Int32) {
        let (trueSeconds, trueNanoseconds) = sample.trueTime
        let (systemSeconds, systemNanoseconds) = sample.systemTime.posixTime
        segment.withLock { pointer in
            nmeastream_shm_write(pointer, trueSeconds, Int(trueNanoseconds), systemSeconds, Int(systemNanoseconds),
                                 sample.announcedLeap.rawValue, precision)
        }
    }
}
