/// Builds one JSON object as UTF-8 bytes, fast: numbers are written in fixed point without
/// going through `String`.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Creates an empty writer with room for a typical gpsd report.
    public init() { bytes.reserveCapacity(512) }

    /// Forgets what was written, keeping the memory.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    /// Writes `{`.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `"key":[`.
    public mutating func beginArray(_ key: StaticString) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Writes `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"key":"value"` with JSON escaping.
    public mutating func string(_ key: StaticString, _ value: String) {
        writeKey(key)
        writeQuoted(value)
    }

    /// Writes `"key":"` then lets `body` append raw ASCII that needs no escaping, then `"`.
    public mutating func rawString(_ key: StaticString, _ body: (inout [UInt8]) -> Void) {
        writeKey(key)
        bytes.append(UInt8(ascii: "\""))
        body(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `"key":value` for a whole number.
    public mutating func integer(_ key: StaticString, _ value: Int) {
        writeKey(key)
        appendInteger(value)
    }

    /// Writes `"key":true` or `false`.
    public mutating func bool(_ key: StaticString, _ value: Bool) {
        writeKey(key)
        bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
    }

    /// Writes `"key":value` in fixed point with `decimals` digits after the point; nothing at
    /// all when `value` is `nil` or not finite (JSON has no NaN).
    public mutating func number(_ key: StaticString, _ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return }
        writeKey(key)
        appendFixed(value, decimals: decimals)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeKey(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = true
    }

    private mutating func writeQuoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendUnsigned(UInt64(value.magnitude))
        } else {
            appendUnsigned(UInt64(value))
        }
    }

    private mutating func appendUnsigned(_ value: UInt64) {
        guard value > 0 else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        // Up to 16 decimal digits reversed through the nibbles of one word; wider numbers
        // (never seen in a report) take the slow path for their high digits.
        var value = value
        var stack: UInt64 = 0
        var count = 0
        while value > 0, count < 16 {
            stack = stack << 4 | (value % 10)
            value /= 10
            count += 1
        }
        if value > 0 { bytes.append(contentsOf: String(value).utf8) }
        for _ in 0..<count {
            bytes.append(UInt8(ascii: "0") &+ UInt8(stack & 0xF))
            stack >>= 4
        }
    }

    private mutating func appendFixed(_ value: Double, decimals: Int) {
        let scale = powersOfTen[decimals]
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9.0e15 else {
            bytes.append(contentsOf: "\(value)".utf8)
            return
        }
        let whole = UInt64(scaled)
        if value < 0, whole != 0 { bytes.append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        appendUnsigned(whole / divisor)
        guard decimals > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var fraction = whole % divisor
        var place = divisor / 10
        while place > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(fraction / place))
            fraction %= place
            place /= 10
        }
    }
}
