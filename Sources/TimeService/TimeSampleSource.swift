import Dispatch
import NMEAStream
import Platform

/// A receiver's time samples, for whichever time service takes them (chronyd's sockets,
/// ntpd's shared memory, gpsd's `TOFF` and `PPS` reports): one more subscriber of its
/// ``GPSMonitor`` (so it keeps the device open while it runs), that makes a sample of the
/// serial time each second (``SerialTimeSampler``) and, when it has a pulse per second
/// (``PulseInput``), pairs each pulse with the second it began (``PulsePairing``).
///
/// A receiver that goes away is subscribed to again each second until ``stop()``.
final class TimeSampleSource: Sendable {
    /// What a sample is of.
    enum Kind: Sendable {
        /// The receiver's serial time: when its report began to arrive, and the time it named.
        case serial
        /// A pulse: its edge, and the second it began.
        case pulse
    }

    /// Where the receiver's pulses are read, if anywhere.
    let pulses: PulseInput?
    /// The receiver's path, whose own line a ``PulseInput/carrierDetect`` input is.
    let devicePath: String
    private let monitor: GPSMonitor
    private let queue = DispatchQueue(label: "nmeastream.time-samples")
    private let state: Protected<State>
    private let samples: @Sendable (TimeSample, Kind) -> Void
    private let ppsUnavailable: @Sendable () -> Void
    private let receiverChanged: @Sendable (ReceiverChange) -> Void

    /// Whether the receiver gives fixes, told when it changes.
    enum ReceiverChange: Sendable, Equatable {
        /// It cannot be read (missing, gone, silent): the error says why. Told again only
        /// when the error changes.
        case unavailable(GPSError)
        /// It gives fixes again, after it could not be read.
        case reading
    }

    private struct State {
        var sampling: TimeSampling
        var subscription: Disposable?
        var pulses: PulseReader?
        var running = false
        /// Why the receiver cannot be read, while it cannot.
        var unavailable: GPSError?
    }

    /// Samples of `monitor`'s receiver (at `devicePath`), and of its `pulses`, told to
    /// `samples` (on a reader's or the pulse reader's thread: return at once); `ppsUnavailable`
    /// is told when the pulses cannot be read. Nothing is read until ``start()``.
    /// `receiverChanged` is told when the receiver cannot be read, and when it is read again.
    init(monitor: GPSMonitor, devicePath: String, pulses: PulseInput?, requiredValidFixes: Int,
         samples: @escaping @Sendable (TimeSample, Kind) -> Void, ppsUnavailable: @escaping @Sendable () -> Void = {},
         receiverChanged: @escaping @Sendable (ReceiverChange) -> Void = { _ in }) {
        self.monitor = monitor
        self.devicePath = devicePath
        self.pulses = pulses
        self.samples = samples
        self.ppsUnavailable = ppsUnavailable
        self.receiverChanged = receiverChanged
        state = Protected(State(sampling: TimeSampling(requiredValidFixes: requiredValidFixes)))
    }

    /// Subscribes to the receiver's fixes (which opens it, if nothing else has), and reads
    /// the PPS device if one was given.
    func start() {
        let started = state.withLock { state -> Bool in
            defer { state.running = true }
            return state.running
        }
        guard !started else { return }
        subscribe()
        if let pulses { readPulses(from: pulses) }
    }

    /// Stops, and lets the receiver go (it closes unless someone else reads it).
    func stop() {
        let (subscription, pulses) = state.withLock { state -> (Disposable?, PulseReader?) in
            state.running = false
            defer {
                state.subscription = nil
                state.pulses = nil
            }
            return (state.subscription, state.pulses)
        }
        subscription?.dispose()
        pulses?.stop()
    }

    private func subscribe() {
        let subscription = monitor.fixes(delivery: .newest(capacity: 4)).observe(
            next: { [weak self] fix in self?.take(fix) },
            failed: { [weak self] error in
                self?.noteUnavailable(error)
                self?.resubscribeLater()
            },
            completed: { [weak self, devicePath] in
                self?.noteUnavailable(.deviceLost(path: devicePath, errno: nil))
                self?.resubscribeLater()
            })
        let keep = state.withLock { state -> Bool in
            guard state.running else { return false }
            state.subscription = subscription
            return true
        }
        if !keep { subscription.dispose() }
    }

    private func resubscribeLater() {
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [weak self] in
            guard let self, self.state.withLock({ $0.running }) else { return }
            self.subscribe()
        }
    }

    /// Tells `reason` unless it was the last told.
    private func noteUnavailable(_ reason: GPSError) {
        let changed = state.withLock { state -> Bool in
            guard state.running, state.unavailable != reason else { return false }
            state.unavailable = reason
            return true
        }
        if changed { receiverChanged(.unavailable(reason)) }
    }

    private func take(_ fix: Fix) {
        let (serial, pulse, back) = state.withLock { state in
            let back = state.unavailable != nil
            state.unavailable = nil
            let (serial, pulse) = state.sampling.take(fix)
            return (serial, pulse, back)
        }
        if back { receiverChanged(.reading) }
        if let serial { samples(serial, .serial) }
        if let pulse { samples(pulse.sample, .pulse) }
    }

    private func readPulses(from input: PulseInput) {
        let devicePath = self.devicePath
        let reader = PulseReader(
            open: { try input.open(devicePath: devicePath) },
            pulse: { [weak self] time in self?.state.withLock { $0.sampling.notePulse(at: time) } },
            unavailable: { [weak self] _ in self?.ppsUnavailable() })
        let keep = state.withLock { state -> Bool in
            guard state.running else { return false }
            state.pulses = reader
            return true
        }
        if !keep { reader.stop() }
    }
}
