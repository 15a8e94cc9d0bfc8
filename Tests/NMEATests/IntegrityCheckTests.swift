import Testing
@testable import NMEA
import TestSupport

/// The integrity checks of one receiver, epoch by epoch on made-up fixes: each kind flagged on
/// the epoch that shows it (the fix carries the flag, the event its evidence), and nothing on
/// a track that is merely noisy.
@Suite("Integrity checks", .mayBlock)
struct IntegrityCheckTests {
    static let start: Int64 = 1_717_588_800

    /// A 3D fix `second` seconds in, `north` metres north of a point, moving north at `speed`.
    static func fix(_ second: Double, north: Double = 0, speed: Double? = 10, error: Double? = 5,
                    stamped: Double? = nil) -> Fix {
        var fix = Fix()
        fix.mode = .threeD
        fix.time = UTCTime(posixSeconds: start + Int64(second.rounded(.down)),
                           nanoseconds: Int64((second - second.rounded(.down)) * 1e9))
        fix.latitude = 52 + north / 111_195
        fix.longitude = 4
        fix.altitudeMSL = 10
        fix.speed = speed
        fix.errorEstimates.horizontal = error
        if let stamped {
            fix.receivedAt = UTCTime(posixSeconds: start + Int64(stamped.rounded(.down)),
                                     nanoseconds: Int64((stamped - stamped.rounded(.down)) * 1e9))
        }
        return fix
    }

    /// Runs `check` over `fixes` (each an epoch of its own); the events of each epoch and the
    /// flags its fix came out with.
    static func run(_ fixes: [Fix], sky: (Int) -> Sky? = { _ in nil },
                    check: inout IntegrityCheck) -> [(events: [IntegrityEvent], flags: IntegrityFlags)] {
        fixes.enumerated().map { index, fix in
            var epoch = Epoch(sky: sky(index), fix: fix)
            let events = check.check(&epoch)
            return (events, epoch.fix?.integrity ?? [])
        }
    }

    /// Whether each epoch's fix was flagged `kind`.
    static func flagged(_ results: [(events: [IntegrityEvent], flags: IntegrityFlags)], _ kind: IntegrityKind) -> [Bool] {
        results.map { $0.flags.contains(kind) }
    }

    @Test("A steady track at 10 m/s, with its noise, flags nothing")
    func steadyTrack() {
        var check = IntegrityCheck()
        let fixes = (0..<60).map { Self.fix(Double($0), north: Double($0) * 10 + Double($0 % 3) * 4) }
        let results = Self.run(fixes, check: &check)
        #expect(results.allSatisfy { $0.events.isEmpty && $0.flags.isEmpty })
    }

    @Test("A jump of 2 km in one second at 10 m/s is flagged on that fix, with its evidence")
    func positionJump() throws {
        var check = IntegrityCheck(source: "/dev/ttyUSB0")
        var fixes = (0..<10).map { Self.fix(Double($0), north: Double($0) * 10) }
        for index in 5..<10 { fixes[index].latitude! += 2000 / 111_195.0 }
        let results = Self.run(fixes, check: &check)
        #expect(results.map(\.flags) == (0..<10).map { $0 == 5 ? IntegrityFlags(.positionJump) : [] })
        let event = try #require(results[5].events.first)
        #expect(event.kind == .positionJump && event.source == "/dev/ttyUSB0" && event.time == fixes[5].time)
        guard case .positionJump(let metres, let seconds, let allowed) = event.evidence else {
            Issue.record("evidence \(event.evidence)")
            return
        }
        #expect((metres - 2010).magnitude < 15 && seconds == 1)
        // (10 m/s × 1.5 + 10 m/s) × 1 s + 50 m + 5 m + 5 m.
        #expect((allowed - 85).magnitude < 0.001)
        #expect(event.description.hasPrefix("position-jump on /dev/ttyUSB0 at "))
    }

    @Test("Without a reported speed, a jump is judged by the speed limit")
    func jumpWithoutSpeed() {
        var check = IntegrityCheck()
        var fixes = (0..<4).map { Self.fix(Double($0), speed: nil) }
        fixes[2].latitude! += 800 / 111_195.0     // under (600 × 1.5 + 10) + 60
        fixes[3].latitude! += 2800 / 111_195.0    // 2000 m from the fix before: over it
        let results = Self.run(fixes, check: &check)
        #expect(results.map(\.flags) == [[], [], [], IntegrityFlags(.positionJump)])
    }

    @Test("A fix after an epoch without one is not compared with the fix before it")
    func reacquisition() {
        var check = IntegrityCheck()
        var fixes = (0..<4).map { Self.fix(Double($0)) }
        fixes[1].mode = .noFix
        fixes[1].latitude = nil
        fixes[2].latitude! += 3000 / 111_195.0
        fixes[3].latitude! += 3000 / 111_195.0
        #expect(Self.run(fixes, check: &check).allSatisfy { $0.flags.isEmpty })
    }

    @Test("A time step against the system clock is flagged; steady delivery is not")
    func timeStepAgainstClock() throws {
        var check = IntegrityCheck()
        // Delivered every second, with half a second of jitter; the receiver's time steps by
        // 30 s at the sixth fix and runs on from there.
        let fixes = (0..<10).map { (second: Int) -> Fix in
            let time = Double(second) + (second >= 5 ? 30 : 0)
            let arrival = Double(second) + (second % 2 == 0 ? 0 : 0.5)
            return Self.fix(time, north: Double(second) * 10, stamped: arrival)
        }
        let results = Self.run(fixes, check: &check)
        #expect(Self.flagged(results, .timeStep) == (0..<10).map { $0 == 5 })
        let event = try #require(results[5].events.first { $0.kind == .timeStep })
        #expect(event.evidence == .timeStep(seconds: 31, expected: 1.5))
    }

    @Test("Without arrival stamps (a log), a step is judged by the receiver's own cycle, and backwards is a step")
    func timeStepByCycle() {
        var check = IntegrityCheck()
        var fixes = (0..<12).map { Self.fix(Double($0), north: Double($0) * 10) }
        fixes[6].time = UTCTime(posixSeconds: Self.start + 3600 + 6, nanoseconds: 0)
        for index in 7..<12 { fixes[index].time = UTCTime(posixSeconds: Self.start + 3600 + Int64(index), nanoseconds: 0) }
        fixes[10].time = UTCTime(posixSeconds: Self.start + 3600 + 4, nanoseconds: 0)
        let results = Self.run(fixes, check: &check)
        #expect(Self.flagged(results, .timeStep) == (0..<12).map { $0 == 6 || $0 == 10 || $0 == 11 })
    }

    @Test("A receiver's time before it has a fix is not compared; the same instant told twice is no step")
    func timeWithoutFix() {
        var check = IntegrityCheck()
        var fixes = (0..<8).map { Self.fix(Double($0), north: Double($0) * 10) }
        // A cold start: its clock's guess, then the fix.
        fixes[0].mode = .noFix
        fixes[0].time = UTCTime(posixSeconds: 315_964_800, nanoseconds: 0)
        fixes[1].mode = .noFix
        fixes[1].time = UTCTime(posixSeconds: 315_964_801, nanoseconds: 0)
        // Two sentences of one epoch, 3 ms apart.
        fixes[5].time = UTCTime(posixSeconds: Self.start + 4, nanoseconds: 3_000_000)
        #expect(!Self.flagged(Self.run(fixes, check: &check), .timeStep).contains(true))
    }

    @Test("Epochs without a time between two fixes count as cycles")
    func cyclesWithoutTime() {
        var check = IntegrityCheck()
        var fixes = (0..<8).map { Self.fix(Double($0), north: Double($0) * 10) }
        fixes[4].time = nil
        fixes[5].time = nil
        fixes[4].timeOfDay = nil
        fixes[5].timeOfDay = nil
        #expect(!Self.flagged(Self.run(fixes, check: &check), .timeStep).contains(true))
    }

    @Test("An altitude or a speed out of range is flagged on every fix, and told once when it starts")
    func ranges() {
        var check = IntegrityCheck()
        var fixes = (0..<6).map { Self.fix(Double($0), north: Double($0) * 10) }
        for index in 2..<4 { fixes[index].altitudeMSL = 60_000 }
        fixes[4].speed = 700
        fixes[4].latitude = fixes[3].latitude
        let results = Self.run(fixes, check: &check)
        #expect(results.map(\.flags) == [[], [], IntegrityFlags(.altitudeRange), IntegrityFlags(.altitudeRange),
                                         IntegrityFlags(.speedRange), []])
        #expect(results.map { $0.events.map(\.kind) } == [[], [], [.altitudeRange], [], [.speedRange], []])
    }

    /// A sky of `densities` on GPS L1, or on `talker`.
    static func sky(_ densities: [Double?], talker: Talker = .gps) -> Sky {
        let satellites = densities.enumerated().map { index, density in
            Satellite(id: nil, nmeaID: index + 1, elevation: Double(10 + index * 8), azimuth: Double(index * 40), snr: density, used: true)
        }
        return Sky(views: [SatelliteView(talker: talker, signalID: 1, satellites: satellites)])
    }

    @Test("Many satellites at one high density are flagged as uniform; a real sky's spread is not")
    func uniformSignals() throws {
        var check = IntegrityCheck()
        let real: [Double?] = [44, 38, 41, 29, 47, 35, 33, 40, nil]
        let spoofed: [Double?] = [45, 45, 46, 45, 44, 45, 45, 46]
        let fixes = (0..<5).map { Self.fix(Double($0), north: Double($0) * 10) }
        let results = Self.run(fixes, sky: { $0 < 2 ? Self.sky(real) : Self.sky(spoofed) }, check: &check)
        #expect(Self.flagged(results, .uniformSignals) == [false, false, true, true, true])
        #expect(results.map { $0.events.count } == [0, 0, 1, 0, 0])
        let event = try #require(results[2].events.first)
        guard case .uniformSignals(let satellites, let mean, let spread) = event.evidence else { return }
        #expect(satellites == 8 && (mean - 45.125).magnitude < 0.001 && spread < 0.61)
    }

    @Test("Fewer than eight tracked satellites, or weak ones, are never uniform")
    func uniformNeedsManyStrong() {
        var check = IntegrityCheck()
        let fixes = (0..<2).map { Self.fix(Double($0), north: Double($0) * 10) }
        let results = Self.run(fixes, sky: { $0 == 0 ? Self.sky([45, 45, 45, 45, 45, 45, 45]) : Self.sky(Array(repeating: 25, count: 10), talker: .galileo) },
                               check: &check)
        #expect(results.allSatisfy { $0.flags.isEmpty })
    }

    @Test("Every strong signal falling at once is a signal loss; a sky of another constellation is not")
    func signalLoss() throws {
        var check = IntegrityCheck()
        let strong: [Double?] = [44, 38, 41, 32, 47, 35]
        let skies: [Sky] = [
            Self.sky(strong),
            Self.sky([45, 39, 40, 33, 46, 36]),
            Self.sky([20, 18, nil, 15, 22, 16]),     // jammed
            Self.sky(strong, talker: .glonass),       // nothing listed again of GPS: no comparison
            Self.sky(strong),
            Self.sky([44, 38, nil, nil, nil, nil]),    // four of six listed with no signal
            Self.sky(strong),
            Self.sky([44, 38]),                        // four gone from the list: unknown, not lost
        ]
        let fixes = (0..<skies.count).map { Self.fix(Double($0), north: Double($0) * 10) }
        let results = Self.run(fixes, sky: { skies[$0] }, check: &check)
        #expect(Self.flagged(results, .signalLoss) == [false, false, true, false, false, true, false, false])
        let event = try #require(results[2].events.first)
        guard case .signalLoss(let satellites, let lost, let before, let after) = event.evidence else { return }
        #expect(satellites == 6 && lost == 1 && (before - 39.833).magnitude < 0.01 && (after - 15.167).magnitude < 0.01)
    }

    @Test("High-rate fixes between epochs are checked for their ranges only")
    func highRate() {
        var check = IntegrityCheck()
        var fixes = (0..<4).map { Self.fix(Double($0), north: Double($0) * 10) }
        fixes[2].isHighRate = true
        fixes[2].time = UTCTime(posixSeconds: Self.start + 1, nanoseconds: 500_000_000)
        fixes[2].latitude! += 5000 / 111_195.0
        #expect(Self.run(fixes, check: &check).allSatisfy { $0.flags.isEmpty })
    }

    @Test("Every setting is named once, and set through its name")
    func settings() {
        let names = IntegrityThresholds.settings.map(\.name)
        #expect(Set(names).count == names.count)
        var thresholds = IntegrityThresholds()
        let maxSpeed = IntegrityThresholds.settings.first { $0.name == "max-speed" }!
        #expect(maxSpeed.set(300, in: &thresholds) && thresholds.maximumSpeed == 300)
        let count = IntegrityThresholds.settings.first { $0.name == "uniform-satellites" }!
        #expect(!count.set(2.5, in: &thresholds) && count.set(8, in: &thresholds) && thresholds.uniformMinimumSatellites == 8)
        #expect(!maxSpeed.set(.infinity, in: &thresholds))
    }
}

@Suite("Disagreement between receivers", .mayBlock)
struct DisagreementCheckTests {
    @Test("Two receivers farther apart than their errors and the antennas allow disagree; told once")
    func disagreement() throws {
        var check = DisagreementCheck(names: ["a", "b"])
        func fix(_ second: Double, north: Double, error: Double? = 5, hdop: Double? = nil) -> Fix {
            var fix = IntegrityCheckTests.fix(second, north: north, error: error)
            fix.hdop = hdop
            return fix
        }
        #expect(check.take(fix(0, north: 0), from: 0).flags.isEmpty)
        #expect(check.take(fix(0, north: 15), from: 1).flags.isEmpty)             // 15 m < 5 + 5 + 10
        #expect(check.take(fix(1, north: 10), from: 0).flags.isEmpty)
        let apart = check.take(fix(1, north: 60), from: 1)                        // 50 m > 20
        #expect(apart.flags == IntegrityFlags(.disagreement))
        let event = try #require(apart.events.first)
        #expect(event.source == "b" && event.kind == .disagreement)
        guard case .disagreement(let other, let metres, let allowed) = event.evidence else { return }
        #expect(other == "a" && (metres - 50).magnitude < 0.5 && allowed == 20)
        _ = check.take(fix(2, north: 20), from: 0)
        let still = check.take(fix(2, north: 70), from: 1)
        #expect(still.flags == IntegrityFlags(.disagreement) && still.events.isEmpty)
        // Not of the same instant: not compared. No error known: not compared.
        #expect(check.take(fix(3.5, north: 500), from: 0).flags.isEmpty)
        #expect(check.take(fix(4, north: 900, error: nil), from: 1).flags.isEmpty)
        // HDOP stands in for a missing estimate: 2 × 5 m.
        _ = check.take(fix(5, north: 0, error: nil, hdop: 2), from: 0)
        #expect(check.take(fix(5, north: 20, error: nil, hdop: 2), from: 1).flags.isEmpty)
    }
}
