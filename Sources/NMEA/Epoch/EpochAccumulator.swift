/// The epoch being built: what the sentences of one cycle have said so far, merged field by
/// field (each sentence type's `apply(to:)` says how), and the three things sentences update
/// that outlast an epoch: the date resolver, the satellites the last GSA marked used, and
/// the leap seconds last said.
struct EpochAccumulator: Sendable {
    /// The fields merged so far; its mode, climb and derived speed are set when it is finished.
    var fix = Fix()
    /// What the sentences said about the fix's dimension.
    var mode = ModeEvidence()
    /// Garmin's `$PGRMZ` altitude, used only when no GGA or GNS gave one.
    @CompactDouble var garminAltitude: Double?
    /// Whether a timed sentence (RMC) gave the epoch's speed or course: an untimed VTG, which
    /// may be the next cycle's, does not override them.
    var hasTimedMotion = false
    /// Dates and years, from RMC and ZDA.
    var dates: DateResolver
    /// The satellites the epoch's GSA sentences mark used; kept until the next epoch's first
    /// GSA, as the satellite views that follow are marked from them.
    private var used = SatelliteSet()
    private var usedCleared = false
    /// GPS time minus UTC, seconds, as a receiver last said it (`$PGRMF`, UBX's NAV-TIMEGPS
    /// and NAV-TIMELS).
    private(set) var leapSeconds: Int?
    /// The next time pulse, as TIM-TP last announced it: every fix carries it until the next.
    private(set) var timePulse: TimePulse?
    /// The leap second a receiver last announced (NAV-TIMELS): every fix carries it until the
    /// receiver says otherwise.
    private(set) var leapSecondChange: Int?
    /// What the epoch's UBX messages said, laid over its NMEA fields when it is finished.
    var ubx = UBXEpochFields()
    /// UBX's time of week against UTC: outlasts the epoch.
    var ubxClock = UBXEpochClock()

    init(dates: DateResolver) {
        self.dates = dates
    }

    /// Forgets the fields of the epoch (the used satellites wait for the next GSA).
    mutating func startEpoch() {
        fix = Fix()
        fix.leapSeconds = leapSeconds
        fix.timePulse = timePulse
        fix.leapSecondChange = leapSecondChange
        clockTime = nil
        mode = ModeEvidence()
        garminAltitude = nil
        hasTimedMotion = false
        usedCleared = false
        if !ubx.isEmpty { ubx = UBXEpochFields() }
    }

    /// The leap seconds a receiver said: this epoch's and every later one's, until it says
    /// otherwise.
    mutating func noteLeapSeconds(_ seconds: Int) {
        leapSeconds = seconds
        fix.leapSeconds = seconds
    }

    /// The leap second a receiver announces (`nil`: none): this epoch's and every later one's.
    mutating func noteLeapSecondChange(_ change: Int?) {
        leapSecondChange = change
        fix.leapSecondChange = change
    }

    /// The next time pulse a receiver announced: this epoch's and every later one's, until the
    /// next announcement.
    mutating func noteTimePulse(_ pulse: TimePulse) {
        timePulse = pulse
        fix.timePulse = pulse
    }

    /// Takes the time of the epoch from its first sentence that has one.
    mutating func noteTime(_ time: TimeOfDay?) {
        if let time, fix.timeOfDay == nil { fix.timeOfDay = time }
    }

    /// The first time a clock (ZDA) gave the epoch: its time when no other sentence gives one.
    private(set) var clockTime: TimeOfDay?

    /// Notes a clock's time: the epoch's only if no sentence that bears on the fix gives one
    /// (a receiver may stamp its ZDA apart from its positions).
    mutating func noteClockTime(_ time: TimeOfDay?) {
        if let time, clockTime == nil { clockTime = time }
    }

    /// The epoch's time of day: its sentences', or else its clock's.
    var timeOfDay: TimeOfDay? { fix.timeOfDay ?? clockTime }

    /// Sets the position when both coordinates are known.
    mutating func setPosition(_ latitude: Double?, _ longitude: Double?) {
        guard let latitude, let longitude else { return }
        fix.latitude = latitude
        fix.longitude = longitude
    }

    /// The dilutions of precision a receiver can give (the rest are its way of saying it has
    /// none: SkyTraq sends 0.00, Jackson Labs 99.00, some others 99.99), as gpsd takes them.
    static let dilutions = 0.01...89.99

    /// Takes dilutions of precision (from GSA, GGA or GNS), each that is one.
    mutating func mergeDilutions(pdop: Double?, hdop: Double?, vdop: Double?) {
        if let value = pdop.flatMap(Self.dilution) { fix.pdop = value }
        if let value = hdop.flatMap(Self.dilution) { fix.hdop = value }
        if let value = vdop.flatMap(Self.dilution) { fix.vdop = value }
    }

    private static func dilution(_ value: Double) -> Double? { dilutions.contains(value) ? value : nil }

    /// The solution data GGA and GNS share.
    mutating func mergeSolution(satellites: Int?, hdop: Double?, altitude: Double?, separation: Double?,
                                age: Double?, station: Int?) {
        if let value = satellites { fix.satellitesUsed = value }
        mergeDilutions(pdop: nil, hdop: hdop, vdop: nil)
        if let value = altitude { fix.altitudeMSL = value }
        if let value = separation { fix.geoidSeparation = value }
        // Age and station describe the corrections together: receivers without corrections
        // send the station alone ("0000"), or both zero; gpsd takes them so too.
        if let age, let station, age > 0 || station > 0 {
            fix.differentialAge = age
            fix.differentialStation = station
        }
    }

    /// Marks satellites used, for a GSA: the epoch's first GSA (even one that names none)
    /// clears the marks of the epoch before.
    mutating func markUsed(_ mark: (inout SatelliteSet) -> Void) {
        if !usedCleared {
            usedCleared = true
            used.removeAll()
        }
        mark(&used)
    }

    /// How many satellites this epoch's GSA sentences mark used; `nil` when the epoch had no GSA.
    var usedCount: Int? { usedCleared ? used.count : nil }

    /// Sets the used flags of a view's satellites from the marks (mutating only to read the
    /// marks in place).
    mutating func markUsed(in satellites: inout [Satellite]) {
        used.markUsed(&satellites)
    }
}
