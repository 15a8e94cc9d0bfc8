/// One value of a request's JSON argument object (`?WATCH={"enable":true,"raw":2}`): the
/// flat objects gpsd's requests take hold no arrays and no nested objects.
public enum ArgumentValue: Sendable, Hashable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case null

    /// The value as a whole number: a number without a fraction, or a boolean as 0 or 1
    /// (clients send `"raw":true` as well as `"raw":1`); `nil` for anything else.
    public var wholeNumber: Int? {
        switch self {
        case .number(let value) where value == value.rounded() && abs(value) < 1e9: Int(value)
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }
}

/// Reads a flat JSON object: `{`, then `"key": value` pairs, then `}`; values are `true`,
/// `false`, `null`, numbers and strings (with JSON's escapes). What follows the object is left
/// to the caller.
struct ArgumentReader {
    private let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], from start: Int = 0) {
        self.bytes = bytes
        position = start
    }

    /// The object, in the order its keys came; a description of the first problem otherwise.
    mutating func readObject() throws(ProtocolError) -> [(key: String, value: ArgumentValue)] {
        skipSpaces()
        try expect(UInt8(ascii: "{"))
        var pairs: [(key: String, value: ArgumentValue)] = []
        skipSpaces()
        if peek == UInt8(ascii: "}") {
            position += 1
            return pairs
        }
        while true {
            skipSpaces()
            let key = try readString()
            skipSpaces()
            try expect(UInt8(ascii: ":"))
            skipSpaces()
            pairs.append((key, try readValue()))
            skipSpaces()
            guard let next = peek else { throw ProtocolError.invalidArguments("unterminated object") }
            position += 1
            if next == UInt8(ascii: "}") { return pairs }
            guard next == UInt8(ascii: ",") else { throw ProtocolError.invalidArguments("expected , or } in object") }
        }
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpaces() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(ProtocolError) {
        guard peek == byte else {
            throw ProtocolError.invalidArguments("expected \(Character(Unicode.Scalar(byte)))")
        }
        position += 1
    }

    private mutating func readValue() throws(ProtocolError) -> ArgumentValue {
        switch peek {
        case UInt8(ascii: "\"")?: return .string(try readString())
        case UInt8(ascii: "t")?: try readWord("true"); return .bool(true)
        case UInt8(ascii: "f")?: try readWord("false"); return .bool(false)
        case UInt8(ascii: "n")?: try readWord("null"); return .null
        case UInt8(ascii: "{")?, UInt8(ascii: "[")?:
            throw ProtocolError.invalidArguments("nested objects and arrays are not accepted")
        default: return .number(try readNumber())
        }
    }

    private mutating func readWord(_ word: StaticString) throws(ProtocolError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
              (0..<count).allSatisfy({ bytes[position + $0] == word.utf8Start[$0] })
        else { throw ProtocolError.invalidArguments("unexpected value") }
        position += count
    }

    private mutating func readNumber() throws(ProtocolError) -> Double {
        let start = position
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
        }
        guard position > start, position - start <= 32,
              let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite
        else { throw ProtocolError.invalidArguments("expected a value") }
        return value
    }

    private mutating func readString() throws(ProtocolError) -> String {
        try expect(UInt8(ascii: "\""))
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "u"):
                    guard position + 4 <= bytes.count,
                          let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
                    else { throw ProtocolError.invalidArguments("bad \\u escape") }
                    position += 4
                    flush()
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw ProtocolError.invalidArguments("bad escape in string")
                }
            case 0..<0x20:
                throw ProtocolError.invalidArguments("control character in string")
            default:
                utf8.append(byte)
            }
        }
        throw ProtocolError.invalidArguments("unterminated string")
    }
}
