import Platform
import NMEAStream

/// A made-up receiver's output: a vehicle going round a circle at constant speed, one epoch
/// (GGA, GSA, GSV, RMC, VTG) per second, from a given start time: GPS alone, as older
/// receivers send, or GPS, GLONASS, Galileo and BeiDou as a modern multi-constellation
/// receiver does (NMEA 4.11: `GN` talker, one GSA per system, GSV with signal IDs).
struct SyntheticTrack: Sendable {
    /// The circle's centre: latitude and longitude in degrees.
    var center: (latitude: Double, longitude: Double)
    /// The circle's radius, metres.
    var radius: Double
    /// Speed along the circle, metres per second.
    var speed: Double
    /// Altitude above mean sea level, metres.
    var altitude: Double
    /// The time of the first epoch, seconds since 1970 (POSIX time).
    var start: Int64
    /// Whether it sends four constellations (NMEA 4.11) rather than GPS alone (NMEA 2.3).
    var multiConstellation = false

    /// Creates a track; the defaults circle a park in Delft at walking-to-cycling speed.
    init(center: (latitude: Double, longitude: Double) = (52.0116, 4.3571), radius: Double = 200,
                speed: Double = 5, altitude: Double = 2, start: Int64 = UTCTime.now.posixTime.seconds,
                multiConstellation: Bool = false) {
        self.multiConstellation = multiConstellation
        self.center = center
        self.radius = radius
        self.speed = speed
        self.altitude = altitude
        self.start = start
    }

    /// What the made-up receiver suffers: faults to inject (``SimulateCommand``'s `--control`).
    struct Condition: Sendable, Equatable {
        /// Its fix: 3D (normal), 2D, or none.
        var mode: FixMode = .threeD
        /// How far north of the true track it reports, metres: a spoofer's shift.
        var shiftNorth: Double = 0
        /// How far its time is off, seconds.
        var timeShift: Int64 = 0
        /// What its signals look like: uniform at 45 dB-Hz, jammed down to 12 dB-Hz.
        var signals: SimulatedFault.SignalShape = .normal

        /// Suffers `fault` from now on.
        mutating func apply(_ fault: SimulatedFault) {
            switch fault {
            case .mode(let mode): self.mode = mode
            case .shift(let metres): shiftNorth = metres
            case .timeShift(let seconds): timeShift = seconds
            case .signals(let shape): signals = shape
            case .normal: self = Condition()
            }
        }
    }

    /// The sentences of the epoch of `second` (POSIX seconds: ``start`` is epoch 0), under
    /// `condition`.
    func epoch(atSecond second: Int64, condition: Condition = Condition()) -> String {
        epoch(Int(second - start), condition: condition)
    }

    /// The sentences of epoch `index` (0 is the first), with checksums and CR LF endings, under
    /// `condition`.
    func epoch(_ index: Int, condition: Condition = Condition()) -> String {
        let time = UTCTime(posixSeconds: start + Int64(index) + condition.timeShift, nanoseconds: 0)
        let angle = speed * Double(index) / radius
        let metresPerDegree = 111_320.0
        let latitude = center.latitude + (radius * sin(angle) + condition.shiftNorth) / metresPerDegree
        let longitude = center.longitude + radius * cos(angle) / (metresPerDegree * cos(center.latitude * .pi / 180))
        // Heading along the circle (counter-clockwise), degrees from north.
        var course = (atan2(-sin(angle), cos(angle)) * 180 / .pi)
        if course < 0 { course += 360 }
        let clock = time.timeOfDay.nanosecondsSinceMidnight / 1_000_000_000
        let hhmmss = zeroPadded(clock / 3600, width: 2) + zeroPadded(clock / 60 % 60, width: 2) + zeroPadded(clock % 60, width: 2) + ".00"
        let ddmmyy = zeroPadded(time.date.day, width: 2) + zeroPadded(time.date.month, width: 2) + zeroPadded(time.date.year % 100, width: 2)
        let knots = speed / 0.514444
        let north = latitude < 0 ? "S" : "N", east = longitude < 0 ? "W" : "E"
        let hasFix = condition.mode >= .twoD
        let position = hasFix ? "\(Self.angle(latitude, 2)),\(north),\(Self.angle(longitude, 3)),\(east)" : ",,,"
        let talker = multiConstellation ? "GN" : "GP"
        let systems = (multiConstellation ? Self.systems : [Self.systems[0]]).map { system in
            var system = system
            for index in system.satellites.indices {
                switch condition.signals {
                case .normal: break
                case .uniform: system.satellites[index].snr = 45
                case .jammed: system.satellites[index].snr = 12
                }
                if !hasFix { system.satellites[index].used = false }
            }
            return system
        }
        let used = systems.reduce(0) { $0 + $1.satellites.filter(\.used).count }
        let quality = hasFix ? 1 : 0
        let height = condition.mode == .threeD ? fixedPoint(altitude, decimals: 1) : ""
        var sentences = [
            "\(talker)GGA,\(hhmmss),\(position),\(quality),\(zeroPadded(used, width: 2)),\(hasFix ? "0.9" : ""),\(height),M,47.0,M,,"
        ]
        for system in systems {
            let ids = system.satellites.filter(\.used).map { zeroPadded($0.id, width: 2) }
            let slots = (ids + Array(repeating: "", count: 12)).prefix(12).joined(separator: ",")
            let dops = hasFix ? "1.6,0.9,1.3" : ",,"
            sentences.append("\(talker)GSA,A,\(max(1, condition.mode.rawValue)),\(slots),\(dops)" + (multiConstellation ? ",\(system.systemID)" : ""))
        }
        for system in systems {
            let parts = (system.satellites.count + 3) / 4
            for part in 0..<parts {
                var body = "\(system.talker)GSV,\(parts),\(part + 1),\(zeroPadded(system.satellites.count, width: 2))"
                for satellite in system.satellites[(part * 4)..<min(system.satellites.count, part * 4 + 4)] {
                    body += "," + zeroPadded(satellite.id, width: 2) + "," + zeroPadded(satellite.elevation, width: 2) + ","
                        + zeroPadded(satellite.azimuth, width: 3) + "," + zeroPadded(satellite.snr, width: 2)
                }
                if multiConstellation { body += ",\(system.signalID)" }
                sentences.append(body)
            }
        }
        if hasFix {
            sentences.append("\(talker)RMC,\(hhmmss),A,\(position),\(fixedPoint(knots, decimals: 2)),\(fixedPoint(course, decimals: 1)),\(ddmmyy),,,A"
                             + (multiConstellation ? ",V" : ""))
            sentences.append("\(talker)VTG,\(fixedPoint(course, decimals: 1)),T,,M,\(fixedPoint(knots, decimals: 2)),N,\(fixedPoint(speed * 3.6, decimals: 2)),K,A")
        } else {
            sentences.append("\(talker)RMC,\(hhmmss),V,,,,,,,\(ddmmyy),,,N" + (multiConstellation ? ",V" : ""))
            sentences.append("\(talker)VTG,,T,,M,,N,,K,N")
        }
        return sentences.map { body in
            let sum = body.utf8.reduce(UInt8(0), ^)
            return "$\(body)*\(zeroPadded(sum, width: 2, radix: 16, uppercase: true))\r\n"
        }.joined()
    }

    /// The satellites in view of one system, as its GSV and GSA give them.
    struct System: Sendable {
        var talker: String
        /// NMEA 4.11 system ID (GSA's last field): 1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou.
        var systemID: Int
        /// NMEA 4.11 signal ID (GSV's last field): L1 C/A, G1, E1, B1I.
        var signalID: Int
        var satellites: [(id: Int, elevation: Int, azimuth: Int, snr: Int, used: Bool)]
    }

    /// The sky it reports: GPS first (alone without ``multiConstellation``).
    static let systems = [
        System(talker: "GP", systemID: 1, signalID: 1, satellites: [
            (5, 45, 120, 40, true), (13, 60, 200, 42, true), (15, 30, 300, 38, true), (18, 20, 50, 35, true),
            (23, 10, 10, 30, true), (29, 5, 100, 25, true)]),
        System(talker: "GL", systemID: 2, signalID: 1, satellites: [(70, 40, 150, 36, true), (71, 55, 250, 39, true), (80, 12, 330, 28, false)]),
        System(talker: "GA", systemID: 3, signalID: 7, satellites: [(4, 33, 80, 37, true), (9, 48, 170, 40, true), (30, 8, 280, 22, false)]),
        System(talker: "GB", systemID: 4, signalID: 1, satellites: [(11, 50, 100, 41, true), (12, 25, 210, 36, true)]),
    ]

    /// `dddmm.mmmmmm` with `degreeDigits` digits of degrees.
    static func angle(_ value: Double, _ degreeDigits: Int) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        let text = fixedPoint(minutes, decimals: 6)
        return zeroPadded(degrees, width: degreeDigits) + (text.count < 9 ? "0" : "") + text
    }
}
