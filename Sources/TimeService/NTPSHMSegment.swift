import Platform
import NMEAStream

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
    private let segment: Protected<SharedTimeSegment>

    /// The leap field's "not in sync": readers ignore the segment.
    static let notInSync: Int32 = 3

    /// Attaches unit `unit`; fails with the system's error (`EACCES`: a segment made by
    /// another user for its owner only, such as a root ntpd's unit 0 or 1; `ENOSYS`: a
    /// kernel without System V IPC).
    init(unit: Int) throws(Errno) {
        self.unit = unit
        let attached = try SharedTimeSegment(unit: unit, permissions: unit < 2 ? 0o600 : 0o666)
        attached.reset(mode: 1, leap: Self.notInSync, precision: -20, samples: 3)
        segment = Protected(attached)
    }

    /// Writes `sample`, with `precision` (log2 seconds: -1 for a receiver's serial time, -20
    /// for a pulse), by the count and valid handshake.
    func write(_ sample: TimeSample, precision: Int32) {
        let (trueSeconds, trueNanoseconds) = sample.trueTime
        let (systemSeconds, systemNanoseconds) = sample.systemTime.posixTime
        segment.withLock { segment in
            segment.write(trueSeconds: trueSeconds, trueNanoseconds: Int(trueNanoseconds), systemSeconds: systemSeconds,
                          systemNanoseconds: Int(systemNanoseconds), leap: sample.announcedLeap.rawValue, precision: precision)
        }
    }
}
