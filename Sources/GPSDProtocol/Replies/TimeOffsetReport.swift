import NMEA
import NMEARendering

/// gpsd's `TOFF` and `PPS` reports (gpsd_json(5)), sent to clients that watch with `pps`: a
/// time sample of a device, the true time beside the system time it was taken at.
public struct TimeOffsetReport: Sendable, Hashable {
    /// Which report.
    public enum Kind: Sendable, Hashable {
        /// `TOFF`: the receiver's serial time (the second a report named, and when its first
        /// byte arrived).
        case serialTime
        /// `PPS`: a pulse (the second it began, and its edge's system time).
        case pulse
    }

    public var kind: Kind
    /// The device's path.
    public var device: String
    /// The true time: seconds since 1970 (`real_sec`) and nanoseconds (`real_nsec`).
    public var realSeconds: Int64
    public var realNanoseconds: Int64
    /// The system clock's time of the sample (`clock_sec`, `clock_nsec`).
    public var clockSeconds: Int64
    public var clockNanoseconds: Int64
    /// log2 of the sample's precision in seconds (-1 for serial time, -20 for a pulse).
    public var precision: Int
    /// The pulse's quantization error, picoseconds (`qErr`, from u-blox's TIM-TP); `nil` when
    /// the receiver did not give one (it is then left out).
    public var quantizationError: Int?

    /// A report.
    public init(kind: Kind, device: String, realSeconds: Int64, realNanoseconds: Int64, clockSeconds: Int64, clockNanoseconds: Int64,
                precision: Int, quantizationError: Int? = nil) {
        self.kind = kind
        self.device = device
        self.realSeconds = realSeconds
        self.realNanoseconds = realNanoseconds
        self.clockSeconds = clockSeconds
        self.clockNanoseconds = clockNanoseconds
        self.precision = precision
        self.quantizationError = quantizationError
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.asciiString("class", kind == .pulse ? "PPS" : "TOFF")
        writer.string("device", device)
        writer.integer("real_sec", Int(realSeconds))
        writer.integer("real_nsec", Int(realNanoseconds))
        writer.integer("clock_sec", Int(clockSeconds))
        writer.integer("clock_nsec", Int(clockNanoseconds))
        writer.integer("precision", precision)
        if kind == .pulse, let quantizationError { writer.integer("qErr", quantizationError) }
        writer.endObject()
    }
}
