import NMEAStream
import Platform
import TimeService

/// A served device's time reports while it is open: `TOFF` for each fix's serial time, and
/// `PPS` for each pulse paired with the second it began, when the receiver has a pulse
/// source. One more subscriber of the device's monitor, as the time feeds `serve` runs are,
/// apart from the device's reports; each sample is rendered once for the watchers that watch
/// with `pps` (``ServedDevice/publish(_:kind:quantizationError:)``).
final class TimeReports: Sendable {
    private let sampling = Protected(TimeSampling())

    private init() {}

    /// Samples `device`'s fixes, and reads its pulses with `pulses` when it has them, until
    /// the result is disposed. Subscribed before the device's reports, so that a fix's `TOFF`
    /// goes before its `TPV`, as before.
    static func start(for device: ServedDevice, pulses: (@Sendable () throws -> any PulseSource)?) -> Disposable {
        let reports = TimeReports()
        let running = CompositeDisposable()
        if let pulses {
            let path = device.path, events = device.events
            let reader = PulseReader(
                open: pulses,
                pulse: { time in reports.sampling.withLock { $0.notePulse(at: time) } },
                unavailable: { error in events?(.pulsesUnavailable(path: path, reason: "\(error)")) })
            running += BlockDisposable { reader.stop() }
        }
        running += device.monitor.eventsOnReaderQueue(epochs: true, sentences: false, bytes: false).observe { [weak device] event in
            guard case .next(.epoch(let epoch)) = event, let fix = epoch.fix, let device else { return }
            let samples = reports.sampling.withLock { $0.take(fix) }
            if let serial = samples.serial { device.publish(serial, kind: .serialTime) }
            if let pulse = samples.pulse { device.publish(pulse.sample, kind: .pulse, quantizationError: pulse.quantizationError) }
        }
        return running
    }
}
