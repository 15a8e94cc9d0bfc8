/// A request a gpsd client sends (`?WATCH={...};`), as gpsd's protocol defines it.
public enum ClientRequest: Sendable, Hashable {
    /// `?VERSION;`
    case version
    /// `?DEVICES;`
    case devices
    /// `?WATCH;` (report the policy: `nil`) or `?WATCH={...}` (change it).
    case watch([String: ArgumentValue]?)
    /// `?POLL;`
    case poll
    /// `?DEVICE;` (report: `nil`) or `?DEVICE={...}` (settings, which nmeastream refuses).
    case device([String: ArgumentValue]?)

    /// The request `text` (from `?` to before its `;` or line end), or why it is not one.
    public init(parsing text: [UInt8]) throws(ProtocolError) {
        var end = 1
        while end < text.count, Self.isNameByte(text[end]) { end += 1 }
        let name = String(decoding: text[1..<end], as: UTF8.self)
        var arguments: [String: ArgumentValue]?
        if end < text.count {
            guard text[end] == UInt8(ascii: "=") else {
                throw ProtocolError.unrecognized(String(decoding: text.prefix(64), as: UTF8.self))
            }
            var reader = ArgumentReader(text, from: end + 1)
            var object: [String: ArgumentValue] = [:]
            for (key, value) in try reader.readObject() { object[key] = value }
            arguments = object
        }
        switch name {
        case "VERSION" where arguments == nil: self = .version
        case "DEVICES" where arguments == nil: self = .devices
        case "POLL" where arguments == nil: self = .poll
        case "WATCH": self = .watch(arguments)
        case "DEVICE": self = .device(arguments)
        default: throw ProtocolError.unrecognized("?" + name)
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
