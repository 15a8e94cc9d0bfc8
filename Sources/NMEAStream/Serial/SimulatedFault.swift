import NMEA

/// A fault injected into a made-up receiver's track, as `nmeastream simulate --control` reads
/// them, one a line: `3d`, `2d`, `no-fix`, `shift METRES`, `time-shift SECONDS`,
/// `signals normal|uniform|jammed`, `normal`. Every number is checked against a stated range
/// before it is used, so no line can make the receiver trap or report an impossible value.
public enum SimulatedFault: Sendable, Equatable {
    /// Its fix: 3D (normal), 2D or none.
    case mode(FixMode)
    /// Reports positions this far north of the true track, metres (south when negative): a
    /// spoofer's shift, within ±``maximumShift``.
    case shift(metres: Double)
    /// Reports times this far off, seconds, within ±``maximumTimeShift``.
    case timeShift(seconds: Int64)
    /// Its signals' densities.
    case signals(SignalShape)
    /// Every fault undone.
    case normal

    /// What the signals look like.
    public enum SignalShape: String, Sendable, Equatable, CaseIterable {
        /// Each satellite at its own density.
        case normal
        /// Every satellite at one density: one transmitter (a spoofer).
        case uniform
        /// Every satellite weak: a jammer.
        case jammed
    }

    /// The farthest shift, metres: 1,000 km, where every check has long flagged it.
    public static let maximumShift = 1_000_000.0
    /// The largest time shift, seconds: ten years.
    public static let maximumTimeShift: Int64 = 315_576_000

    /// The commands, for a refusal's reminder.
    public static let usage = "3d, 2d, no-fix, shift METRES, time-shift SECONDS, signals normal|uniform|jammed, normal"

    /// Why a line is not a fault.
    public enum Refusal: Error, Equatable {
        /// Not one of the commands, or its words wrong.
        case notACommand
        /// A number outside its range, or not a number: the range.
        case outOfRange(String)
    }

    /// The fault `line` names (words separated by spaces or tabs, case as written).
    public static func parse(_ line: String) -> Result<SimulatedFault, Refusal> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch (words.first, words.count) {
        case ("3d", 1): return .success(.mode(.threeD))
        case ("2d", 1): return .success(.mode(.twoD))
        case ("no-fix", 1): return .success(.mode(.noFix))
        case ("normal", 1): return .success(.normal)
        case ("shift", 2):
            guard let metres = Double(words[1]), metres.isFinite, abs(metres) <= maximumShift else {
                return .failure(.outOfRange("shift takes metres from -\(Int(maximumShift)) to \(Int(maximumShift))"))
            }
            return .success(.shift(metres: metres))
        case ("time-shift", 2):
            guard let seconds = Int64(words[1]), seconds.magnitude <= maximumTimeShift.magnitude else {
                return .failure(.outOfRange("time-shift takes whole seconds from -\(maximumTimeShift) to \(maximumTimeShift)"))
            }
            return .success(.timeShift(seconds: seconds))
        case ("signals", 2):
            guard let shape = SignalShape(rawValue: words[1]) else { return .failure(.notACommand) }
            return .success(.signals(shape))
        default: return .failure(.notACommand)
        }
    }
}

/// Lines out of a stream of bytes that nobody vouches for (a control input), in bounded
/// memory: a line longer than ``maximumLength`` bytes keeps its first bytes and is marked cut,
/// the rest of it skipped up to its end; a CR before the LF is dropped. Pure: bytes in, lines
/// out.
public struct BoundedLineSplitter: Sendable {
    /// A line.
    public struct Line: Sendable, Equatable {
        /// Its first bytes, at most ``maximumLength``.
        public var bytes: [UInt8]
        /// Whether it was longer, and cut.
        public var isCut: Bool

        /// A line of `bytes`, cut or not.
        public init(bytes: [UInt8], isCut: Bool) {
            self.bytes = bytes
            self.isCut = isCut
        }
    }

    /// The longest line kept whole, bytes.
    public let maximumLength: Int
    private var current: [UInt8] = []
    private var isCut = false

    /// A splitter of lines up to `maximumLength` bytes (at least 1).
    public init(maximumLength: Int = 256) { self.maximumLength = max(1, maximumLength) }

    /// The lines `bytes` ends; a line not ended yet waits for more.
    public mutating func take(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == 0x0A {
                if current.last == 0x0D, !isCut { current.removeLast() }
                lines.append(Line(bytes: current, isCut: isCut))
                current.removeAll(keepingCapacity: true)
                isCut = false
            } else if current.count < maximumLength {
                current.append(byte)
            } else {
                isCut = true
            }
        }
        return lines
    }

    /// What is left at the end of the stream, as a last line; `nil` when nothing is.
    public mutating func finish() -> Line? {
        defer {
            current.removeAll()
            isCut = false
        }
        return current.isEmpty && !isCut ? nil : Line(bytes: current, isCut: isCut)
    }
}
