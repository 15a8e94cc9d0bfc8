/// A receiver's own estimates of how accurate its fix is, as u-blox's UBX messages give them
/// (`hAcc`, `vAcc`, `sAcc`, `headAcc`, `tAcc`), each to the resolution UBX gives it. u-blox does not say at what confidence; gpsd
/// reports them as they come, and so does nmeastream. Each is `nil` when the epoch's messages
/// did not give it.
public struct ReceiverAccuracy: Sendable, Hashable {
    // In the receiver's own units (0.1 mm, mm/s, 1e-5 degree, ns), UInt32.max for none: a fix
    // is copied at least once per epoch, and this keeps what only UBX gives small in every fix.
    private var storedHorizontal: UInt32
    private var storedVertical: UInt32
    private var storedSpeed: UInt32
    private var storedTrack: UInt32
    private var storedTime: UInt32

    /// Horizontal position accuracy, metres, to 0.1 mm (gpsd's `eph`).
    public var horizontal: Double? {
        get { Self.unpack(storedHorizontal, 1e4) }
        set { storedHorizontal = Self.pack(newValue, 1e4) }
    }
    /// Vertical position accuracy, metres, to 0.1 mm (gpsd's `epv`).
    public var vertical: Double? {
        get { Self.unpack(storedVertical, 1e4) }
        set { storedVertical = Self.pack(newValue, 1e4) }
    }
    /// Speed accuracy, metres per second, to 1 mm/s (gpsd's `eps`).
    public var speed: Double? {
        get { Self.unpack(storedSpeed, 1e3) }
        set { storedSpeed = Self.pack(newValue, 1e3) }
    }
    /// Accuracy of the course (heading of motion), degrees, to 1e-5 degree.
    public var track: Double? {
        get { Self.unpack(storedTrack, 1e5) }
        set { storedTrack = Self.pack(newValue, 1e5) }
    }
    /// Time accuracy, seconds, to the nanosecond.
    public var time: Double? {
        get { Self.unpack(storedTime, 1e9) }
        set { storedTime = Self.pack(newValue, 1e9) }
    }

    /// Accuracies as given; `nil` for each one not known. Each is kept to its resolution above
    /// (u-blox's own); one past 4,294,967,294 of its units is none.
    public init(horizontal: Double? = nil, vertical: Double? = nil, speed: Double? = nil, track: Double? = nil,
                time: Double? = nil) {
        storedHorizontal = Self.pack(horizontal, 1e4)
        storedVertical = Self.pack(vertical, 1e4)
        storedSpeed = Self.pack(speed, 1e3)
        storedTrack = Self.pack(track, 1e5)
        storedTime = Self.pack(time, 1e9)
    }

    private static func pack(_ value: Double?, _ unitsPerOne: Double) -> UInt32 {
        value.flatMap { UInt32(exactly: ($0 * unitsPerOne).rounded()) }.map { min($0, .max - 1) } ?? .max
    }

    // Division by the power of ten gives the decimal's nearest double, as the decoders do.
    private static func unpack(_ value: UInt32, _ unitsPerOne: Double) -> Double? {
        value == .max ? nil : Double(value) / unitsPerOne
    }
}

/// A fix in Earth-centred, Earth-fixed coordinates (WGS 84), as UBX's NAV-SOL, NAV-POSECEF
/// and NAV-VELECEF give it, and gpsd reports it (`ecefx`… `ecefvAcc`). Each value is `nil` when
/// the epoch's messages did not give it.
public struct ECEFSolution: Sendable, Hashable {
    // In centimetres and cm/s, as UBX gives them; Int32.min for none (see ReceiverAccuracy).
    private var stored: (x: Int32, y: Int32, z: Int32, positionAccuracy: Int32, vx: Int32, vy: Int32, vz: Int32,
                         velocityAccuracy: Int32)

    /// Position, metres, to the centimetre.
    public var x: Double? { get { Self.unpack(stored.x) } set { stored.x = Self.pack(newValue) } }
    /// Position, metres, to the centimetre.
    public var y: Double? { get { Self.unpack(stored.y) } set { stored.y = Self.pack(newValue) } }
    /// Position, metres, to the centimetre.
    public var z: Double? { get { Self.unpack(stored.z) } set { stored.z = Self.pack(newValue) } }
    /// The 3D position accuracy estimate, metres, to the centimetre.
    public var positionAccuracy: Double? {
        get { Self.unpack(stored.positionAccuracy) }
        set { stored.positionAccuracy = Self.pack(newValue) }
    }
    /// Velocity, metres per second, to 1 cm/s.
    public var vx: Double? { get { Self.unpack(stored.vx) } set { stored.vx = Self.pack(newValue) } }
    /// Velocity, metres per second, to 1 cm/s.
    public var vy: Double? { get { Self.unpack(stored.vy) } set { stored.vy = Self.pack(newValue) } }
    /// Velocity, metres per second, to 1 cm/s.
    public var vz: Double? { get { Self.unpack(stored.vz) } set { stored.vz = Self.pack(newValue) } }
    /// The speed accuracy estimate, metres per second, to 1 cm/s.
    public var velocityAccuracy: Double? {
        get { Self.unpack(stored.velocityAccuracy) }
        set { stored.velocityAccuracy = Self.pack(newValue) }
    }

    /// A solution; `nil` for each value not known. Each is kept to the centimetre (UBX's
    /// resolution); one beyond ±21,474 km is none.
    public init(x: Double? = nil, y: Double? = nil, z: Double? = nil, positionAccuracy: Double? = nil,
                vx: Double? = nil, vy: Double? = nil, vz: Double? = nil, velocityAccuracy: Double? = nil) {
        stored = (Self.pack(x), Self.pack(y), Self.pack(z), Self.pack(positionAccuracy), Self.pack(vx), Self.pack(vy),
                  Self.pack(vz), Self.pack(velocityAccuracy))
    }

    /// Equal when every value is.
    public static func == (lhs: ECEFSolution, rhs: ECEFSolution) -> Bool {
        lhs.stored.x == rhs.stored.x && lhs.stored.y == rhs.stored.y && lhs.stored.z == rhs.stored.z
            && lhs.stored.positionAccuracy == rhs.stored.positionAccuracy && lhs.stored.vx == rhs.stored.vx
            && lhs.stored.vy == rhs.stored.vy && lhs.stored.vz == rhs.stored.vz
            && lhs.stored.velocityAccuracy == rhs.stored.velocityAccuracy
    }

    /// Hashes every value.
    public func hash(into hasher: inout Hasher) {
        for value in [stored.x, stored.y, stored.z, stored.positionAccuracy, stored.vx, stored.vy, stored.vz,
                      stored.velocityAccuracy] {
            hasher.combine(value)
        }
    }

    private static func pack(_ value: Double?) -> Int32 {
        value.flatMap { Int32(exactly: ($0 * 100).rounded()) }.map { max($0, .min + 1) } ?? .min
    }

    private static func unpack(_ value: Int32) -> Double? { value == .min ? nil : Double(value) / 100 }

    /// Takes each value `other` has (a later message of the epoch), keeping its own where
    /// `other` has none.
    mutating func merge(_ other: ECEFSolution) {
        func pick(_ theirs: Int32, _ mine: Int32) -> Int32 { theirs == .min ? mine : theirs }
        let o = other.stored
        stored = (pick(o.x, stored.x), pick(o.y, stored.y), pick(o.z, stored.z),
                  pick(o.positionAccuracy, stored.positionAccuracy), pick(o.vx, stored.vx), pick(o.vy, stored.vy),
                  pick(o.vz, stored.vz), pick(o.velocityAccuracy, stored.velocityAccuracy))
    }

    /// The position, when all three coordinates are known and it is not the origin (what a
    /// receiver without a fix sends, as gpsd takes it).
    var position: (x: Double, y: Double, z: Double)? {
        guard let x, let y, let z, abs(x) + abs(y) + abs(z) > 10 else { return nil }
        return (x, y, z)
    }

    /// The velocity, when all three components are known.
    var velocity: (x: Double, y: Double, z: Double)? {
        guard let vx, let vy, let vz else { return nil }
        return (vx, vy, vz)
    }
}

/// How far a receiver vouches for its time and date, as UBX gives it (NAV-PVT's `valid` and
/// `flags2`, NAV-TIMEUTC's and NAV-SOL's validity flags). NMEA says none of this: a fix from
/// NMEA alone has no validity.
public struct TimeValidity: Sendable, Hashable {
    /// Whether the receiver marks the date valid. A fix's ``Fix/time`` is set only when both
    /// the date and the time of day are.
    public var dateIsValid: Bool
    /// Whether the receiver marks the time of day valid.
    public var timeIsValid: Bool
    /// Whether the time is fully resolved (no ambiguity of a second or more); `nil` when the
    /// messages did not say.
    public var isFullyResolved: Bool?
    /// Whether a second source confirmed the date; `nil` when the receiver cannot tell (u-blox
    /// protocol 19 and later only).
    public var dateIsConfirmed: Bool?
    /// Whether a second source confirmed the time of day; `nil` likewise.
    public var timeIsConfirmed: Bool?

    /// A validity as given.
    public init(dateIsValid: Bool, timeIsValid: Bool, isFullyResolved: Bool? = nil, dateIsConfirmed: Bool? = nil,
                timeIsConfirmed: Bool? = nil) {
        self.dateIsValid = dateIsValid
        self.timeIsValid = timeIsValid
        self.isFullyResolved = isFullyResolved
        self.dateIsConfirmed = dateIsConfirmed
        self.timeIsConfirmed = timeIsConfirmed
    }

    /// Whether a time service may use the time: valid, and fully resolved where the receiver
    /// says whether it is.
    public var isUsableForTiming: Bool { dateIsValid && timeIsValid && isFullyResolved != false }
}
