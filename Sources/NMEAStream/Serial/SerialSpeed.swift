import CPlatform

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

    /// The termios constant for `bitsPerSecond`, or `nil` for a speed that is not supported.
    static func termiosSpeed(_ bitsPerSecond: Int) -> speed_t? {
        switch bitsPerSecond {
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 921600: speed_t(B921600)
        default: nil
        }
    }

    /// The speed in bits per second that a termios constant stands for, or `nil` for one that
    /// no supported speed uses.
    static func bitsPerSecond(termios speed: speed_t) -> Int? {
        supported.first { termiosSpeed($0) == speed }
    }
}
