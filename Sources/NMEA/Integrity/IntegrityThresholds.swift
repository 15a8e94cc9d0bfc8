/// The limits the integrity checks (``IntegrityCheck``, ``DisagreementCheck``) flag by.
///
/// The defaults flag what no receiver on a vehicle, boat, drone or balloon should report,
/// with margins for the noise of a good one: none of the corpus of real receiver logs trips
/// them except where its data really is wrong (Documentation/several-receivers.md lists those).
public struct IntegrityThresholds: Sendable, Hashable {
    /// The fastest a receiver may go, m/s: a reported speed over it is flagged, and a receiver
    /// that reports no speed may jump no farther than this allows. 600 m/s: above any
    /// aircraft a civil receiver serves (COCOM's export limit is 515 m/s).
    public var maximumSpeed: Double = 600
    /// The lowest altitude, metres (above the ellipsoid, else mean sea level): -500 (the Dead
    /// Sea's shore is at -430).
    public var minimumAltitude: Double = -500
    /// The highest altitude, metres: 50 000 (stratospheric balloons reach about 40 000).
    public var maximumAltitude: Double = 50_000
    /// How much faster than its reported speed (the larger of two fixes') a receiver may have
    /// moved between them, as a factor: 1.5.
    public var jumpSpeedFactor: Double = 1.5
    /// And by how much, m/s, for the speed gained within a cycle: 10 (a hard acceleration).
    public var jumpSpeedSlack: Double = 10
    /// The distance, metres, a fix may move beyond that, on top of both fixes' horizontal error
    /// estimates: the noise of a receiver with no estimate, and the first fixes after a
    /// reacquisition: 50.
    public var jumpNoise: Double = 50
    /// How far, seconds, a receiver's time may step from the clock it is compared with (the
    /// system clock when the reports were stamped on arrival, else the receiver's own cycle
    /// times the reports between): 1.5, more than a report's delivery varies.
    public var timeStepTolerance: Double = 1.5
    /// How many satellites with a carrier-to-noise density the uniform-signal check needs: 8. A
    /// few satellites high in an open sky can be alike (an old receiver of the corpus reports
    /// six at 41 to 46 dB-Hz); a spoofer's sky is alike across every satellite it makes.
    public var uniformMinimumSatellites: Int = 8
    /// The mean carrier-to-noise density, dB-Hz, at and above which signals count as high: 35.
    public var uniformMinimumCN0: Double = 35
    /// The standard deviation of the densities, dB-Hz, at and below which they count as
    /// uniform: 1 (satellites at their several elevations differ by 5 or more).
    public var uniformMaximumSpread: Double = 1
    /// How many strong signals the epoch before must have had for a loss to count: 4.
    public var lossMinimumSatellites: Int = 4
    /// The carrier-to-noise density, dB-Hz, of a strong signal: 30.
    public var lossStrongCN0: Double = 30
    /// How far, dB-Hz, the mean density of those signals must fall in one epoch (a signal lost
    /// counts as 0): 15.
    public var lossDrop: Double = 15
    /// How far apart, metres, the antennas of receivers on one platform may be: added to their
    /// error estimates before two are said to disagree: 10.
    public var antennaSeparation: Double = 10
    /// The horizontal error, metres, of a receiver that gives no estimate, per unit of HDOP,
    /// in the disagreement check: 5 (a receiver with neither is not compared).
    public var errorPerHDOP: Double = 5

    /// The defaults.
    public init() {}

    /// One setting, as the command line names it.
    public struct Setting: Sendable {
        /// Its name: `max-speed`.
        public let name: String
        /// What it is, with its unit.
        public let summary: String
        /// The values it accepts.
        public let allowed: ClosedRange<Double>
        let keyPath: (WritableKeyPath<IntegrityThresholds, Double> & Sendable)?
        let countPath: (WritableKeyPath<IntegrityThresholds, Int> & Sendable)?

        /// The setting's value in `thresholds`.
        public func value(in thresholds: IntegrityThresholds) -> Double {
            if let keyPath { return thresholds[keyPath: keyPath] }
            return countPath.map { Double(thresholds[keyPath: $0]) } ?? 0
        }

        /// Sets it in `thresholds`; `false` when `value` does not suit it (outside
        /// ``allowed``, a count that is not a whole number, or a value that is not finite).
        public func set(_ value: Double, in thresholds: inout IntegrityThresholds) -> Bool {
            guard value.isFinite, allowed.contains(value) else { return false }
            if let keyPath {
                thresholds[keyPath: keyPath] = value
                return true
            }
            guard let countPath, value == value.rounded() else { return false }
            thresholds[keyPath: countPath] = Int(value)
            return true
        }

        init(_ name: String, _ summary: String, _ keyPath: WritableKeyPath<IntegrityThresholds, Double> & Sendable,
             allowed: ClosedRange<Double>) {
            self.name = name
            self.summary = summary
            self.allowed = allowed
            self.keyPath = keyPath
            countPath = nil
        }

        init(_ name: String, _ summary: String, count: WritableKeyPath<IntegrityThresholds, Int> & Sendable) {
            self.name = name
            self.summary = summary
            allowed = 0...999
            keyPath = nil
            countPath = count
        }
    }

    /// Every setting, by its command-line name: the one list the option's parser and help use.
    public static let settings: [Setting] = [
        // Speeds up to the speed of light and heights from the Earth's centre to the Moon: past
        // those a limit is a typing error, never a choice.
        Setting("max-speed", "fastest speed, m/s", \.maximumSpeed, allowed: 0...299_792_458),
        Setting("min-altitude", "lowest altitude, metres", \.minimumAltitude, allowed: -6_400_000...400_000_000),
        Setting("max-altitude", "highest altitude, metres", \.maximumAltitude, allowed: -6_400_000...400_000_000),
        Setting("jump-speed-factor", "factor on the reported speed a jump may exceed", \.jumpSpeedFactor, allowed: 0...1_000),
        Setting("jump-speed-slack", "speed a jump may add, m/s", \.jumpSpeedSlack, allowed: 0...299_792_458),
        Setting("jump-noise", "distance a jump may add, metres", \.jumpNoise, allowed: 0...40_000_000),
        Setting("time-tolerance", "time step allowed, seconds", \.timeStepTolerance, allowed: 0...31_622_400),
        Setting("uniform-satellites", "satellites the uniform-signal check needs", count: \.uniformMinimumSatellites),
        Setting("uniform-cn0", "mean C/N0 of uniform signals, dB-Hz", \.uniformMinimumCN0, allowed: 0...99),
        Setting("uniform-spread", "standard deviation of uniform signals, dB-Hz", \.uniformMaximumSpread, allowed: 0...99),
        Setting("loss-satellites", "strong signals a loss needs before", count: \.lossMinimumSatellites),
        Setting("loss-cn0", "C/N0 of a strong signal, dB-Hz", \.lossStrongCN0, allowed: 0...99),
        Setting("loss-drop", "fall of the mean C/N0 that is a loss, dB-Hz", \.lossDrop, allowed: 0...99),
        Setting("antenna-separation", "distance between antennas, metres", \.antennaSeparation, allowed: 0...40_000_000),
        Setting("error-per-hdop", "error per unit of HDOP without an estimate, metres", \.errorPerHDOP, allowed: 0...1_000_000),
    ]

    /// What is wrong with these limits as a whole (each one may be allowed alone): `nil` when
    /// nothing is. A lowest altitude above the highest flags every fix.
    public var inconsistency: String? {
        guard minimumAltitude <= maximumAltitude else {
            return "min-altitude (\(minimumAltitude) m) is above max-altitude (\(maximumAltitude) m)"
        }
        return nil
    }
}
