import NMEAStream
import Platform

/// A receiver as a reference clock for ntpd, ntpsec or chronyd, through ntpd's shared-memory
/// segments in gpsd's layout and numbering: its serial time in one unit, its pulse per second
/// (from a kernel PPS device or the line's DCD) in the next (``NTPSHMUnits``). Like ``ChronyFeed``, one more
/// subscriber of the receiver's ``GPSMonitor``, by the same rules (``SerialTimeSampler``,
/// ``PulsePairing``).
///
/// The serial time is written with precision -1 (half a second: what any receiver's report
/// is worth), the pulse with -20 (about a microsecond). Readers come and go as they like:
/// the segment is there before them and after them.
///
/// ```
/// # ntpd.conf
/// refclock shm unit 0 refid NMEA time1 0.1
/// refclock shm unit 1 refid PPS prefer
/// # chrony.conf
/// refclock SHM 0 refid NMEA offset 0.1 noselect
/// refclock SHM 1 refid PPS lock NMEA
/// ```
public final class NTPSHMFeed: Sendable {
    /// The device's path, as given.
    public let devicePath: String
    /// The unit of the serial time.
    public let serialUnit: Int
    /// The unit of the pulse.
    public let pulseUnit: Int
    private let units: NTPSHMUnits
    private let serial: NTPSHMSegment
    private let pulse: NTPSHMSegment
    private let state = Protected(Counts())
    private let source = Protected<TimeSampleSource?>(nil)

    /// A change in what the feed can write, told as it happens (not per sample).
    public enum Event: Sendable, Equatable {
        /// The pulses (`device`: a PPS device's path, or `DCD`) could not be read: no pulse
        /// samples will be written.
        case ppsUnavailable(device: String)
        /// The receiver cannot be read (missing, gone, silent: the error says why), so no sample is
        /// written; it is tried again every second. Told again only when the reason changes.
        case receiverUnavailable(GPSError)
        /// The receiver gives fixes again, after ``receiverUnavailable(_:)``.
        case receiverReading
    }

    /// How many samples were written.
    public struct Counts: Sendable, Equatable {
        /// Serial-time samples.
        public var serialWritten = 0
        /// Pulse samples.
        public var pulseWritten = 0
        /// Whether the pulses could not be read.
        public var ppsFailed = false
    }

    /// A feed of `monitor`'s receiver, at `devicePath`, into the next two free units of
    /// `units`; with `pulses` (a kernel PPS device, or the line's DCD), its pulses in the
    /// second. Nothing is read or written until ``start()``; the units are taken now, and given back when the feed ends.
    ///
    /// `events`, when given, is told each change in what can be written as it happens, on the
    /// feed's threads: return at once.
    public init(monitor: GPSMonitor, devicePath: String, units: NTPSHMUnits, pulses: PulseInput? = nil,
                requiredValidFixes: Int = 3, events: (@Sendable (Event) -> Void)? = nil) throws(NTPSHMError) {
        self.devicePath = devicePath
        self.units = units
        guard let serialUnit = units.take() else { throw NTPSHMError(unit: nil, errno: nil) }
        guard let pulseUnit = units.take() else {
            units.give(serialUnit)
            throw NTPSHMError(unit: nil, errno: nil)
        }
        self.serialUnit = serialUnit
        self.pulseUnit = pulseUnit
        do throws(Errno) {
            serial = try NTPSHMSegment(unit: serialUnit)
        } catch {
            units.give(serialUnit)
            units.give(pulseUnit)
            throw NTPSHMError(unit: serialUnit, errno: error)
        }
        do throws(Errno) {
            pulse = try NTPSHMSegment(unit: pulseUnit)
        } catch {
            units.give(serialUnit)
            units.give(pulseUnit)
            throw NTPSHMError(unit: pulseUnit, errno: error)
        }
        let source = TimeSampleSource(
            monitor: monitor, devicePath: devicePath, pulses: pulses, requiredValidFixes: requiredValidFixes,
            samples: { [weak self] sample, kind in self?.write(sample, kind) },
            ppsUnavailable: { [weak self] in
                self?.state.withLock { $0.ppsFailed = true }
                if let pulses { events?(.ppsUnavailable(device: pulses.description)) }
            },
            receiverChanged: { change in
                switch change {
                case .unavailable(let error): events?(.receiverUnavailable(error))
                case .reading: events?(.receiverReading)
                }
            })
        self.source.withLock { $0 = source }
    }

    deinit {
        units.give(serialUnit)
        units.give(pulseUnit)
    }

    /// What was written so far.
    public var counts: Counts { state.withLock { $0 } }

    /// Starts: subscribes to the receiver's fixes (which opens it, if nothing else has), and
    /// reads its pulses if it has them.
    public func start() {
        source.withLock { $0 }?.start()
    }

    /// Stops writing and lets the receiver go (it closes unless someone else reads it).
    public func stop() {
        source.withLock { $0 }?.stop()
    }

    /// Serial time: half a second, what a report's time is worth; a pulse timestamped by
    /// the kernel: about a microsecond.
    static let serialPrecision: Int32 = -1
    static let pulsePrecision: Int32 = -20

    private func write(_ sample: TimeSample, _ kind: TimeSampleSource.Kind) {
        switch kind {
        case .serial:
            serial.write(sample, precision: Self.serialPrecision)
            state.withLock { $0.serialWritten += 1 }
        case .pulse:
            pulse.write(sample, precision: Self.pulsePrecision)
            state.withLock { $0.pulseWritten += 1 }
        }
    }
}

/// Why an ``NTPSHMFeed`` could not be made.
public struct NTPSHMError: Error, CustomStringConvertible {
    /// The unit that could not be attached; `nil` when no unit was free.
    public var unit: Int?
    /// The system's error.
    public var errno: Errno?

    public var description: String {
        guard let unit, let errno else { return "no NTP shared-memory unit is free (one receiver takes two)" }
        let advice = switch errno {
        case .permissionDenied: ": another user made it for its owner only (ntpd or gpsd run as root?); run serve as that user"
        case .notImplemented: ": the kernel has no System V shared memory (CONFIG_SYSVIPC)"
        default: ""
        }
        return "cannot attach NTP shared-memory unit \(unit) (NTP\(unit)): \(errno)\(advice)"
    }
}
