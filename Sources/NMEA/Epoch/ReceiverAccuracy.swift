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
        FixedPoint.pack(value, unitsPerOne, none: .max)
    }

    private static func unpack(_ value: UInt32, _ unitsPerOne: Double) -> Double? {
        FixedPoint.unpack(value, unitsPerOne, none: .max)
    }
}

/// A fix in Earth-centred, Earth-fixed coordinates (WGS 84), as UBX's NAV-SOL, NAV-POSECEF
/// and NAV-VELECEF give it, and gpsd reports it (`ecefx`… `ecefvAcc`). Each value is `nil` when
/// the epoch's messages did not give it.
public struct ECEFSolution: Sendable, Hashable {
    // In centimetres and cm/s, as UBX gives them; Int32.min for none (see FixedPoint).
    private var storedX: Int32, storedY: Int32, storedZ: Int32, storedPositionAccuracy: Int32
    private var storedVX: Int32, storedVY: Int32, storedVZ: Int32, storedVelocityAccuracy: Int32

    /// Position, metres, to the centimetre.
    public var x: Double? { get { Self.unpack(storedX) } set { storedX = Self.pack(newValue) } }
    /// Position, metres, to the centimetre.
    public var y: Double? { get { Self.unpack(storedY) } set { storedY = Self.pack(newValue) } }
    /// Position, metres, to the centimetre.
    public var z: Double? { get { Self.unpack(storedZ) } set { storedZ = Self.pack(newValue) } }
    /// The 3D position accuracy estimate, metres, to the centimetre.
    public var positionAccuracy: Double? {
        get { Self.unpack(storedPositionAccuracy) }
        set { storedPositionAccuracy = Self.pack(newValue) }
    }
    /// Velocity, metres per second, to 1 cm/s.
    public var vx: Double? { get { Self.unpack(storedVX) } set { storedVX = Self.pack(newValue) } }
    /// Velocity, metres per second, to 1 cm/s.
    public var vy: Double? { get { Self.unpack(storedVY) } set { storedVY = Self.pack(newValue) } }
    /// Velocity, metres per second, to 1 cm/s.
    public var vz: Double? { get { Self.unpack(storedVZ) } set { storedVZ = Self.pack(newValue) } }
    /// The speed accuracy estimate, metres per second, to 1 cm/s.
    public var velocityAccuracy: Double? {
        get { Self.unpack(storedVelocityAccuracy) }
        set { storedVelocityAccuracy = Self.pack(newValue) }
    }

    /// A solution; `nil` for each value not known. Each is kept to the centimetre (UBX's
    /// resolution); one beyond ±21,474 km is none.
    public init(x: Double? = nil, y: Double? = nil, z: Double? = nil, positionAccuracy: Double? = nil,
                vx: Double? = nil, vy: Double? = nil, vz: Double? = nil, velocityAccuracy: Double? = nil) {
        storedX = Self.pack(x)
        storedY = Self.pack(y)
        storedZ = Self.pack(z)
        storedPositionAccuracy = Self.pack(positionAccuracy)
        storedVX = Self.pack(vx)
        storedVY = Self.pack(vy)
        storedVZ = Self.pack(vz)
        storedVelocityAccuracy = Self.pack(velocityAccuracy)
    }

    private static func pack(_ value: Double?) -> Int32 { FixedPoint.pack(value, 100, none: .min) }

    private static func unpack(_ value: Int32) -> Double? { FixedPoint.unpack(value, 100, none: .min) }

    /// Takes each value `other` has (a later message of the epoch), keeping its own where
    /// `other` has none.
    mutating func merge(_ other: ECEFSolution) {
        func pick(_ theirs: Int32, _ mine: inout Int32) { if theirs != .min { mine = theirs } }
        pick(other.storedX, &storedX)
        pick(other.storedY, &storedY)
        pick(other.storedZ, &storedZ)
        pick(other.storedPositionAccuracy, &storedPositionAccuracy)
        pick(other.storedVX, &storedVX)
        pick(other.storedVY, &storedVY)
        pick(other.storedVZ, &storedVZ)
        pick(other.storedVelocityAccuracy, &storedVelocityAccuracy)
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
