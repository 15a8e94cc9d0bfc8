import Platform

/// The speed of a serial line, in bits per second, or a request to find it.
///
/// Write a fixed speed as an integer literal: `.serial("/dev/ttyACM0", speed: 9600)`.
public enum SerialSpeed: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Hunt for the speed at which the receiver sends checksum-valid NMEA (see
    /// ``SerialSpeed/huntOrder``). Nothing is written to the device while hunting.
    case automatic
    /// A fixed speed in bits per second: one of ``supported``.
    case bitsPerSecond(Int)

    /// The speeds a receiver may use, from 4800 to 921600 bits per second.
    public static let supported = [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600]

    /// The order in which ``automatic`` tries speeds after the port's current speed and the
    /// receiver's catalogue default: the common NMEA speeds first.
    public static let huntOrder = [9600, 4800, 38400, 115200, 57600, 19200, 230400, 460800]

    /// A fixed speed.
    public init(integerLiteral value: Int) { self = .bitsPerSecond(value) }

    /// `automatic` or the speed, such as `9600`.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .bitsPerSecond(let speed): String(speed)
        }
    }

}
