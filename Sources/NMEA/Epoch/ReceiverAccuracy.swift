/// A receiver's own estimates of how accurate its fix is, as u-blox's UBX messages give them
/// (`hAcc`, `vAcc`, `sAcc`, `headAcc`, `tAcc`). u-blox does not say at what confidence; gpsd
/// reports them as they come, and so does nmeastream. Each is `nil` when the epoch's messages
/// did not give it.
public struct ReceiverAccuracy: Sendable, Hashable {
    /// Horizontal position accuracy, metres (gpsd's `eph`).
    public var horizontal: Double?
    /// Vertical position accuracy, metres (gpsd's `epv`).
    public var vertical: Double?
    /// Speed accuracy, metres per second (gpsd's `eps`).
    public var speed: Double?
    /// Accuracy of the course (heading of motion), degrees.
    public var track: Double?
    /// Time accuracy, seconds.
    public var time: Double?

    /// Accuracies as given; `nil` for each one not known.
    public init(horizontal: Double? = nil, vertical: Double? = nil, speed: Double? = nil, track: Double? = nil,
                time: Double? = nil) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.speed = speed
        self.track = track
        self.time = time
    }
}

/// A fix in Earth-centred, Earth-fixed coordinates (WGS 84), as UBX's NAV-SOL, NAV-POSECEF
/// and NAV-VELECEF give it, and gpsd reports it (`ecefx`… `ecefvAcc`). Each value is `nil` when
/// the epoch's messages did not give it.
public struct ECEFSolution: Sendable, Hashable {
    /// Position, metres.
    public var x: Double?
    /// Position, metres.
    public var y: Double?
    /// Position, metres.
    public var z: Double?
    /// The 3D position accuracy estimate, metres.
    public var positionAccuracy: Double?
    /// Velocity, metres per second.
    public var vx: Double?
    /// Velocity, metres per second.
    public var vy: Double?
    /// Velocity, metres per second.
    public var vz: Double?
    /// The speed accuracy estimate, metres per second.
    public var velocityAccuracy: Double?

    /// A solution; `nil` for each value not known.
    public init(x: Double? = nil, y: Double? = nil, z: Double? = nil, positionAccuracy: Double? = nil,
                vx: Double? = nil, vy: Double? = nil, vz: Double? = nil, velocityAccuracy: Double? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.positionAccuracy = positionAccuracy
        self.vx = vx
        self.vy = vy
        self.vz = vz
        self.velocityAccuracy = velocityAccuracy
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
