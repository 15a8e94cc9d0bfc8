import NMEAStream

/// A receiver's time samples from its fixes and pulses, by the time service's rules: the
/// serial sampler (``SerialTimeSampler``), the pairing of pulses with seconds
/// (``PulsePairing``), and the quantization errors the receiver announced (TIM-TP). Pure:
/// the feeds and the server each keep one and tell it what comes.
package struct TimeSampling: Sendable {
    private var sampler: SerialTimeSampler
    private var pairing = PulsePairing()
    /// The last pulses the receiver announced: a few seconds' worth.
    private var announced: [TimePulse] = []

    package init(requiredValidFixes: Int = 3) {
        sampler = SerialTimeSampler(requiredValidFixes: requiredValidFixes)
    }

    /// A pulse's assert edge, at system time `time`.
    package mutating func notePulse(at time: UTCTime) { pairing.notePulse(at: time) }

    /// What `fix` gives: its serial time sample, if any, and the pulse sample that sample
    /// completes, with the quantization error (picoseconds) the receiver announced for that
    /// second, if it did.
    package mutating func take(_ fix: Fix) -> (serial: TimeSample?, pulse: (sample: TimeSample, quantizationError: Int?)?) {
        if let pulse = fix.timePulse, !announced.contains(pulse) {
            announced.append(pulse)
            if announced.count > 4 { announced.removeFirst() }
        }
        guard let serial = sampler.sample(for: fix) else { return (nil, nil) }
        guard let pulse = pairing.sample(after: serial) else { return (serial, nil) }
        let second = pulse.trueTime.seconds
        return (serial, (pulse, announced.last { $0.second == second }?.quantizationError))
    }
}
