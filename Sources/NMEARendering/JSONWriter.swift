import NMEA

/// Builds one JSON object as UTF-8 bytes, fast: numbers are written in fixed point without
/// going through `String`.
public struct JSONWriter: Sendable {
    // A raw growable buffer: appending goes through plain pointer writes, which matters when
    // a log renders hundreds of thousands of reports. Copy-on-write keeps value semantics.
    private final class Storage: @unchecked Sendable {
        var pointer: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            pointer = .allocate(capacity: capacity)
        }

        deinit { pointer.deallocate() }

        func copy() -> Storage {
            let other = Storage(capacity: capacity)
            other.pointer.update(from: pointer, count: count)
            other.count = count
            return other
        }
    }

    private var storage: Storage
    private var needsComma = false

    /// Creates an empty writer with room for a typical gpsd report.
    public init() { storage = Storage(capacity: 1024) }

    /// A copy of the bytes written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.pointer, count: storage.count)) }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// Forgets what was written, keeping the memory.
    public mutating func reset() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(capacity: storage.capacity) }
        storage.count = 0
        needsComma = false
    }

    /// Makes room for `extra` more bytes and returns where they go.
    @inline(__always)
    private mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        if storage.count + extra > storage.capacity {
            let capacity = max(storage.capacity * 2, storage.count + extra)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: storage.pointer, count: storage.count)
            storage.pointer.deallocate()
            storage.pointer = grown
            storage.capacity = capacity
        }
        return storage.pointer + storage.count
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        storage.count += 1
    }

    private mutating func append(_ source: UnsafePointer<UInt8>, count: Int) {
        reserve(count).update(from: source, count: count)
        storage.count += count
    }

    /// Writes `{`.
    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes `"key":{`: an object inside an object.
    public mutating func beginObject(_ key: StaticString) {
        writeKey(key)
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes `}`.
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `"key":[`.
    public mutating func beginArray(_ key: StaticString) {
        writeKey(key)
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Writes `]`.
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"key":"value"` for a value that is ASCII and needs no escaping (a class name).
    public mutating func asciiString(_ key: StaticString, _ value: StaticString) {
        let target = reserve(key.utf8CodeUnitCount + value.utf8CodeUnitCount + 6)
        var count = Self.putKey(key, at: target, comma: needsComma)
        needsComma = true
        target[count] = UInt8(ascii: "\"")
        (target + count + 1).update(from: value.utf8Start, count: value.utf8CodeUnitCount)
        count += value.utf8CodeUnitCount + 1
        target[count] = UInt8(ascii: "\"")
        storage.count += count + 1
    }

    /// Writes `"value"` with JSON escaping, as an element of an array.
    public mutating func string(_ value: String) {
        separate()
        writeQuoted(value)
        needsComma = true
    }

    /// Writes `"key":"value"` with JSON escaping.
    public mutating func string(_ key: StaticString, _ value: String) {
        writeKey(key)
        writeQuoted(value)
    }

    /// Writes `"key":"2024-05-01T12:34:56.789Z"` (ISO 8601 UTC with milliseconds).
    public mutating func time(_ key: StaticString, _ time: UTCTime) {
        writeKey(key)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            let count = time.writeISO8601(into: buffer.baseAddress!, quoted: true)
            append(buffer.baseAddress!, count: count)
        }
    }

    /// Writes `"key":value` for a whole number.
    public mutating func integer(_ key: StaticString, _ value: Int) {
        let target = reserve(key.utf8CodeUnitCount + 4 + 21)
        var count = Self.putKey(key, at: target, comma: needsComma)
        needsComma = true
        count += Self.putInteger(value, at: target + count)
        storage.count += count
    }

    /// Writes `"key":true` or `false`.
    public mutating func bool(_ key: StaticString, _ value: Bool) {
        writeKey(key)
        let text: StaticString = value ? "true" : "false"
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Writes `"key":value` in fixed point with `decimals` digits after the point; nothing at
    /// all when `value` is `nil` or not finite (JSON has no NaN).
    public mutating func number(_ key: StaticString, _ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return }
        let scaled = (value.magnitude * powerOfTen(decimals)).rounded()
        guard scaled < 9.0e15 else {
            writeKey(key)
            var text = "\(value)"
            text.withUTF8 { append($0.baseAddress!, count: $0.count) }
            return
        }
        let target = reserve(key.utf8CodeUnitCount + 4 + 40)
        var count = Self.putKey(key, at: target, comma: needsComma)
        needsComma = true
        count += Self.putFixed(UInt64(scaled), negative: value < 0, decimals: decimals, at: target + count)
        storage.count += count
    }

    /// Writes a whole number at `target`; returns the byte count (at most 20).
    @inline(__always)
    private static func putInteger(_ value: Int, at target: UnsafeMutablePointer<UInt8>) -> Int {
        var index = 0
        if value < 0 {
            target[0] = UInt8(ascii: "-")
            index = 1
        }
        return index + putDigits(UInt64(value.magnitude), minimum: 1, at: target + index)
    }

    /// Writes `scaled` / 10^decimals in fixed point at `target`; returns the byte count.
    @inline(__always)
    private static func putFixed(_ scaled: UInt64, negative: Bool, decimals: Int, at target: UnsafeMutablePointer<UInt8>) -> Int {
        var index = 0
        if negative && scaled != 0 {
            target[0] = UInt8(ascii: "-")
            index = 1
        }
        let divisor = UInt64(powerOfTen(decimals))
        index += putDigits(scaled / divisor, minimum: 1, at: target + index)
        if decimals > 0 {
            target[index] = UInt8(ascii: ".")
            index += 1
            index += putDigits(scaled % divisor, minimum: decimals, at: target + index)
        }
        return index
    }

    /// Writes `value` in decimal with at least `minimum` digits (zero-padded); returns the count.
    @inline(__always)
    private static func putDigits(_ value: UInt64, minimum: Int, at target: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var probe = value / 10
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        let count = max(digits, minimum)
        var value = value
        var index = count - 1
        while index >= 0 {
            target[index] = UInt8(ascii: "0") &+ UInt8(value % 10)
            value /= 10
            index -= 1
        }
        return count
    }

    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }

    private mutating func writeKey(_ key: StaticString) {
        let target = reserve(key.utf8CodeUnitCount + 4)
        storage.count += Self.putKey(key, at: target, comma: needsComma)
        needsComma = true
    }

    /// Writes `,"key":` (the comma when asked) at `target`; returns the byte count.
    @inline(__always)
    private static func putKey(_ key: StaticString, at target: UnsafeMutablePointer<UInt8>, comma: Bool) -> Int {
        var index = 0
        if comma {
            target[0] = UInt8(ascii: ",")
            index = 1
        }
        target[index] = UInt8(ascii: "\"")
        let length = key.utf8CodeUnitCount
        let source = key.utf8Start
        for offset in 0..<length { target[index + 1 + offset] = source[offset] }
        target[index + 1 + length] = UInt8(ascii: "\"")
        target[index + 2 + length] = UInt8(ascii: ":")
        return index + 3 + length
    }

    private mutating func writeQuoted(_ value: String) {
        var escaped: [UInt8] = [UInt8(ascii: "\"")]
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): escaped += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): escaped += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                escaped += Array("\\u00".utf8)
                escaped.append(hex[Int(byte >> 4)])
                escaped.append(hex[Int(byte & 0xF)])
            default: escaped.append(byte)
            }
        }
        escaped.append(UInt8(ascii: "\""))
        escaped.withUnsafeBufferPointer { append($0.baseAddress!, count: $0.count) }
    }
}
